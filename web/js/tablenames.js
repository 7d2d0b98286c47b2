// Pure (no DOM): each table's name and description in the player's language, by the
// table's id. The API's words stay English; a table the client does not know yet (a new
// one on the server) reads as the API names it.

import { t } from "./i18n.js";

/** The tables the catalogs name (`tables.name.<id>`, `tables.description.<id>`). */
const NAMED = new Set(["classic", "bicycle", "casino", "european"]);

/** A table's name: the catalog's for a table it names, else the API's (`apiName`), else the id. */
export function tableName(id, apiName = "") {
  return NAMED.has(id) ? t(`tables.name.${id}`) : apiName || String(id ?? "");
}

/** A table's description: the catalog's for a table it names, else the API's (may be empty). */
export function tableDescription(id, apiDescription = "") {
  return NAMED.has(id) ? t(`tables.description.${id}`) : apiDescription || "";
}
