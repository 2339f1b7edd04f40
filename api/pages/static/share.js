/* heronlog pages: seat links to share at the table (a link carrying a seat token in its #token= fragment,
 * shown as text to copy and as a QR code to scan). Used by the new-game page and the recording screen.
 */

import { call } from "./api.js";
import { h, replace, say, wireCopyButtons } from "./dom.js";
import { encode, toSvg } from "./qr.js";

export function recordUrl(gameId, token) {
  return `${window.location.origin}/games/${gameId}${token ? `#token=${encodeURIComponent(token)}` : ""}`;
}

/** A link shown as a copyable field and a QR code. */
export function linkBlock(id, url, label) {
  let qr = null;
  try {
    qr = toSvg(encode(url), `QR code of ${label}`);
  } catch (error) {
    qr = h("p", { class: "hint" }, "This link is too long for a QR code: copy it instead.");
  }
  const block = h(
    "div",
    { class: "link-block" },
    h(
      "div",
      { class: "copy-row" },
      h("label", { for: id, class: "visually-hidden" }, label),
      h("input", { id, readonly: true, value: url }),
      h("button", { type: "button", dataset: { copy: id } }, "Copy"),
    ),
    h("div", { class: "qr-box" }, qr),
  );
  wireCopyButtons(block);
  return block;
}

/** One row per seat with a button that issues the seat's token (owner only) and shows its link. */
export function seatLinks(list, gameId, players, ownerToken) {
  replace(
    list,
    players.map((player, seat) => {
      if (player.automatic) return null; // the solo rival: the rules engine plays it, no link to share
      const out = h("div", { class: "seat-link-out" });
      const button = h(
        "button",
        {
          type: "button",
          on: {
            click: async () => {
              button.disabled = true;
              say(button, "");
              try {
                const answer = await call("POST", `/api/games/${gameId}/seats/${seat}/token`, { token: ownerToken, body: {} });
                replace(out, linkBlock(`seat-link-${seat}`, recordUrl(gameId, answer.body.token), `${player.name}'s link`));
                button.textContent = `New link for ${player.name}`;
              } catch (error) {
                say(button, error.message, "error");
              } finally {
                button.disabled = false;
              }
            },
          },
        },
        `Make a link for ${player.name}`,
      );
      return h("li", {}, h("span", { class: `swatch colour-${player.colour}`, "aria-hidden": "true" }), h("strong", {}, player.name), " ", button, out);
    }),
  );
}
