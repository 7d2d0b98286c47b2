// The lobby: the four tables, their limits and rules.
import { loadTables } from "./api.js";
import { clear, h } from "./dom.js";
import { ruleSentences, tableSummary } from "./rules.js";
import { errorText } from "./ui.js";

export async function showLobby(main, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, "Loading tables…"));
  let tables;
  try {
    tables = await loadTables();
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("p", { class: "panel", testid: "lobby-error" }, `Tables are not available: ${errorText(e)}`));
    return;
  }
  if (!isCurrent()) return;
  clear(main).appendChild(
    h(
      "section",
      { class: "lobby", "aria-labelledby": "lobby-title" },
      h("h1", { id: "lobby-title" }, "Choose a table"),
      h(
        "ul",
        { class: "table-list", testid: "table-list" },
        tables.map((t) =>
          h(
            "li",
            { class: "table-card", testid: `table-card-${t.id}` },
            h("h2", {}, t.name || t.id),
            t.description ? h("p", { class: "desc" }, t.description) : null,
            h("p", { class: "limits", testid: `table-limits-${t.id}` }, tableSummary(t)),
            h(
              "details",
              {},
              h("summary", {}, "Rules in plain words"),
              h(
                "ul",
                { class: "rule-list", testid: `table-rules-${t.id}` },
                ruleSentences(t).map((s) => h("li", {}, s)),
              ),
            ),
            h(
              "div",
              { class: "card-actions" },
              h("a", { class: "btn btn-primary", href: `#/table/${encodeURIComponent(t.id)}`, testid: `table-link-${t.id}` }, "Play"),
              h("a", { class: "btn btn-ghost", href: `#/strategy/${encodeURIComponent(t.id)}`, testid: `strategy-link-${t.id}` }, "Strategy card"),
              h("a", { class: "btn btn-ghost", href: `#/indices/${encodeURIComponent(t.id)}`, testid: `indices-link-${t.id}` }, "Index plays"),
            ),
          ),
        ),
      ),
    ),
  );
}
