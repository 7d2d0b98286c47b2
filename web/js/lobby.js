// The lobby: the four tables, their limits and rules; the shared tables with a free box
// (join one, share its link) and a new one.
import { api, loadTables } from "./api.js";
import { clear, field, h } from "./dom.js";
import { t } from "./i18n.js";
import { ROOM_SECONDS, roomRequest, roomSummaryWords, roomTables } from "./roomview.js";
import { ruleSentences, tableSummary } from "./rules.js";
import { tableDescription, tableName } from "./tablenames.js";
import { errorText, go, languagePicker, lockControls, reportError, shareRoom } from "./ui.js";

export async function showLobby(main, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, t("lobby.loading")));
  let tables;
  try {
    tables = await loadTables();
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("p", { class: "panel", testid: "lobby-error" }, t("lobby.unavailable", { problem: errorText(e) })));
    return;
  }
  if (!isCurrent()) return;
  const rooms = h("section", { class: "rooms", testid: "rooms", "aria-labelledby": "rooms-title" });
  clear(main).append(
    h(
      "section",
      { class: "lobby", "aria-labelledby": "lobby-title" },
      h("div", { class: "lobby-head" }, h("h1", { id: "lobby-title" }, t("lobby.title")), languagePicker()),
      h(
        "ul",
        { class: "table-list", testid: "table-list" },
        tables.map((table) => tableCard(table)),
      ),
    ),
    rooms,
  );
  showRooms(rooms, tables, isCurrent);
}

/** A table's card: its name, description, limits and rules in words, and its links. */
function tableCard(table) {
  const id = encodeURIComponent(table.id);
  const description = tableDescription(table.id, table.description);
  return h(
    "li",
    { class: "table-card", testid: `table-card-${table.id}` },
    h("h2", {}, tableName(table.id, table.name)),
    description ? h("p", { class: "desc" }, description) : null,
    h("p", { class: "limits", testid: `table-limits-${table.id}` }, tableSummary(table)),
    h(
      "details",
      {},
      h("summary", {}, t("lobby.rules")),
      h(
        "ul",
        { class: "rule-list", testid: `table-rules-${table.id}` },
        ruleSentences(table).map((s) => h("li", {}, s)),
      ),
    ),
    h(
      "div",
      { class: "card-actions" },
      h("a", { class: "btn btn-primary", href: `#/table/${id}`, testid: `table-link-${table.id}` }, t("lobby.play")),
      h("a", { class: "btn btn-ghost", href: `#/strategy/${id}`, testid: `strategy-link-${table.id}` }, t("lobby.strategy")),
      h("a", { class: "btn btn-ghost", href: `#/indices/${id}`, testid: `indices-link-${table.id}` }, t("lobby.indices")),
    ),
  );
}

// ---------------------------------------------------------------- shared tables

/** The shared tables with a free box, and the form for a new one (GET and POST /v1/rooms). */
async function showRooms(section, tables, isCurrent) {
  const shareable = roomTables(tables);
  const nameOf = (id) => tableName(id, tables.find((table) => table.id === id)?.name);
  const list = h("div", { class: "room-list-wrap", "aria-live": "polite" }, h("p", { class: "muted" }, t("lobby.roomsLoading")));
  const refresh = async () => {
    let found;
    try {
      found = (await api.rooms()).rooms || [];
    } catch (e) {
      if (isCurrent()) clear(list).append(h("p", { class: "muted", testid: "rooms-error" }, t("lobby.roomsUnavailable", { problem: errorText(e) })));
      return;
    }
    if (!isCurrent()) return;
    clear(list).append(
      found.length === 0
        ? h("p", { class: "muted", testid: "rooms-empty" }, t("lobby.roomsEmpty"))
        : h(
            "ul",
            { class: "room-list", testid: "room-list" },
            found.map((room) =>
              h(
                "li",
                { class: "room-item", testid: "room-item", dataset: { roomId: room.room_id } },
                h("span", { class: "room-item-name", translate: "no" }, room.name),
                h("span", { class: "muted small", testid: "room-item-summary" }, roomSummaryWords(room, nameOf(room.table))),
                h(
                  "span",
                  { class: "card-actions" },
                  h(
                    "a",
                    { class: "btn btn-primary btn-small", href: `#/room/${encodeURIComponent(room.room_id)}`, testid: `room-join-${room.room_id}` },
                    t("lobby.join"),
                  ),
                  h(
                    "button",
                    { type: "button", class: "btn btn-ghost btn-small", testid: `room-share-${room.room_id}`, onclick: () => shareRoom(room.room_id) },
                    t("lobby.share"),
                  ),
                ),
              ),
            ),
          ),
    );
  };
  section.append(
    h("h2", { id: "rooms-title" }, t("lobby.rooms")),
    h("p", { class: "muted" }, t("lobby.roomsIntro")),
    list,
    h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "rooms-refresh", onclick: refresh }, t("lobby.refresh")),
    shareable.length ? newRoomForm(shareable) : null,
  );
  await refresh();
}

function newRoomForm(tables) {
  const table = h(
    "select",
    { testid: "new-room-table", name: "table" },
    tables.map((table) => h("option", { value: table.id }, tableName(table.id, table.name))),
  );
  const name = h("input", {
    type: "text",
    testid: "new-room-name",
    name: "name",
    maxlength: "32",
    autocomplete: "off",
    placeholder: t("lobby.newRoomPlaceholder"),
  });
  const seconds = (testid, value) =>
    h("input", { type: "number", testid, min: String(ROOM_SECONDS.min), max: String(ROOM_SECONDS.max), step: "1", value: String(value), inputmode: "numeric" });
  const turn = seconds("new-room-turn", ROOM_SECONDS.turn);
  const betting = seconds("new-room-betting", ROOM_SECONDS.betting);
  const errors = h("p", { class: "field-error", testid: "new-room-errors", role: "status" });
  const form = h(
    "form",
    { class: "panel new-room", testid: "new-room", "aria-labelledby": "new-room-title", novalidate: true },
    h("h3", { id: "new-room-title" }, t("lobby.newRoom")),
    h(
      "div",
      { class: "new-room-fields" },
      field(t("lobby.newRoomTable"), table),
      field(t("lobby.newRoomName"), name),
      field(t("lobby.newRoomTurn"), turn),
      field(t("lobby.newRoomBetting"), betting),
    ),
    errors,
    h("button", { type: "submit", class: "btn btn-primary", testid: "new-room-submit", "data-lock": "on" }, t("lobby.newRoomSubmit")),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const made = roomRequest({ table: table.value, name: name.value, turnSeconds: turn.value, bettingSeconds: betting.value });
    errors.textContent = made.errors.join(" ");
    if (made.errors.length) return;
    lockControls(form, true);
    try {
      const room = await api.makeRoom({ ...made.body, boxes: [0] });
      go(`#/room/${encodeURIComponent(room.room_id)}`);
    } catch (err) {
      reportError(err, t("lobby.newRoomFailed"));
    } finally {
      lockControls(form, false);
    }
  });
  return form;
}
