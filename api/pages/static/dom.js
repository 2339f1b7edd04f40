/* heronlog pages: building DOM and SVG nodes safely.
 *
 * Every page module builds its markup with h() and s(): text always goes in as text nodes, attributes through
 * setAttribute, so a player's name or an annotation can never become markup (no HTML is ever parsed). say()
 * tells what became of an action beside the control that caused it.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "on") {
      for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    } else if (name === "dataset") {
      for (const [key, item] of Object.entries(value)) node.dataset[key] = String(item);
    } else if (name === "text") {
      node.textContent = String(value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {type: "button", on: {click}}, "Undo"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace every child of a node. */
export function replace(node, ...children) {
  node.replaceChildren();
  return fill(node, {}, children);
}

/**
 * Say a short message beside the control (or the group of controls) it is about: in a paragraph right after
 * `anchor`, role="status" (read out politely) or, for kind "error", role="alert". Never at an edge of the screen:
 * on a phone that is under the thumb or the keyboard, far from what was pressed. The place's message replaces
 * the one said there before; an empty message clears it. A template may hold the place's paragraphs already
 * (class "said", right after the anchor): they are used as they are.
 */
export function say(anchor, message, kind = "info") {
  if (!anchor) return;
  const role = kind === "error" ? "alert" : "status";
  const boxes = [];
  for (let node = anchor.nextElementSibling; node && node.classList.contains("said"); node = node.nextElementSibling) boxes.push(node);
  for (const box of boxes) {
    box.said = "";
    box.textContent = "";
  }
  if (!message) return;
  let box = boxes.find((node) => node.getAttribute("role") === role);
  const fresh = !box;
  if (fresh) {
    box = h("p", { class: `said ${kind === "error" ? "error" : "status"}`, role });
    (boxes[boxes.length - 1] || anchor).after(box);
  }
  box.said = message;
  const write = () => {
    if (box.said !== message) return; // something else was said there meanwhile
    box.textContent = message;
    box.scrollIntoView({ block: "nearest" });
  };
  // A live region is read out when its text changes, not when it arrives with its text: a new one is filled
  // a moment after it is in the page.
  if (fresh) setTimeout(write, 100);
  else write();
}

/** Copy text to the clipboard, with a fallback for pages served over plain HTTP on a local network. */
export async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (error) {
    /* fall through to the selection copy */
  }
  if (input) {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }
  return false;
}

/** Wire every button with data-copy="<input id>" to copy that input's value. */
export function wireCopyButtons(root = document) {
  root.querySelectorAll("button[data-copy]").forEach((button) => {
    if (button.dataset.wired) return;
    button.dataset.wired = "1";
    button.addEventListener("click", async () => {
      const input = document.getElementById(button.dataset.copy);
      const done = await copyText(input.value, input);
      say(button.closest(".copy-row") || button, done ? "Copied." : "Select the text and copy it by hand.");
    });
  });
}
