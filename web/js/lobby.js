// The lobby: the four tables, their limits and rules; the shared tables with a free box
// (join one, share its link) and a new one.
import { api, loadTables } from "./api.js";
import { clear, field, h } from "./dom.js";
import { ROOM_SECONDS, roomRequest, roomSummaryWords, roomTables } from "./roomview.js";
import { ruleSentences, tableSummary } from "./rules.js";
import { errorText, go, lockControls, reportError, shareRoom } from "./ui.js";

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
  const rooms = h("section", { class: "rooms", testid: "rooms", "aria-labelledby": "rooms-title" });
  clear(main).append(
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
    rooms,
  );
  showRooms(rooms, tables, isCurrent);
}

// ---------------------------------------------------------------- shared tables

/** The shared tables with a free box, and the form for a new one (GET and POST /v1/rooms). */
async function showRooms(section, tables, isCurrent) {
  const shareable = roomTables(tables);
  const nameOf = (id) => tables.find((t) => t.id === id)?.name || id;
  const list = h("div", { class: "room-list-wrap", "aria-live": "polite" }, h("p", { class: "muted" }, "Looking for shared tables…"));
  const refresh = async () => {
    let found;
    try {
      found = (await api.rooms()).rooms || [];
    } catch (e) {
      if (isCurrent()) clear(list).append(h("p", { class: "muted", testid: "rooms-error" }, `Shared tables are not available: ${errorText(e)}`));
      return;
    }
    if (!isCurrent()) return;
    clear(list).append(
      found.length === 0
        ? h("p", { class: "muted", testid: "rooms-empty" }, "No shared table has a free box now: open one and share its link.")
        : h(
            "ul",
            { class: "room-list", testid: "room-list" },
            found.map((room) =>
              h(
                "li",
                { class: "room-item", testid: "room-item", dataset: { roomId: room.room_id } },
                h("span", { class: "room-item-name" }, room.name),
                h("span", { class: "muted small", testid: "room-item-summary" }, roomSummaryWords(room, nameOf(room.table))),
                h(
                  "span",
                  { class: "card-actions" },
                  h(
                    "a",
                    { class: "btn btn-primary btn-small", href: `#/room/${encodeURIComponent(room.room_id)}`, testid: `room-join-${room.room_id}` },
                    "Join",
                  ),
                  h(
                    "button",
                    { type: "button", class: "btn btn-ghost btn-small", testid: `room-share-${room.room_id}`, onclick: () => shareRoom(room.room_id) },
                    "Share link",
                  ),
                ),
              ),
            ),
          ),
    );
  };
  section.append(
    h("h2", { id: "rooms-title" }, "Shared tables"),
    h("p", { class: "muted" }, "Play with friends at one table: each takes boxes, all play in turn against one dealer."),
    list,
    h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "rooms-refresh", onclick: refresh }, "Refresh"),
    shareable.length ? newRoomForm(shareable) : null,
  );
  await refresh();
}

function newRoomForm(tables) {
  const table = h(
    "select",
    { testid: "new-room-table", name: "table" },
    tables.map((t) => h("option", { value: t.id }, t.name || t.id)),
  );
  const name = h("input", { type: "text", testid: "new-room-name", name: "name", maxlength: "32", autocomplete: "off", placeholder: "Your nick" });
  const seconds = (testid, value) =>
    h("input", { type: "number", testid, min: String(ROOM_SECONDS.min), max: String(ROOM_SECONDS.max), step: "1", value: String(value), inputmode: "numeric" });
  const turn = seconds("new-room-turn", ROOM_SECONDS.turn);
  const betting = seconds("new-room-betting", ROOM_SECONDS.betting);
  const errors = h("p", { class: "field-error", testid: "new-room-errors", role: "status" });
  const form = h(
    "form",
    { class: "panel new-room", testid: "new-room", "aria-labelledby": "new-room-title", novalidate: true },
    h("h3", { id: "new-room-title" }, "Open a shared table"),
    h(
      "div",
      { class: "new-room-fields" },
      field("Table", table),
      field("Name (optional)", name),
      field("Seconds per decision", turn),
      field("Seconds to bet", betting),
    ),
    errors,
    h("button", { type: "submit", class: "btn btn-primary", testid: "new-room-submit", "data-lock": "on" }, "Open and sit at box 1"),
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
      reportError(err, "Could not open the table");
    } finally {
      lockControls(form, false);
    }
  });
  return form;
}
