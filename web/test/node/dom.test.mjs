// dom.test.mjs — the small DOM the Node render tests draw into (dom.mjs) does what the page's
// render modules ask of a browser's: selectors (lists, > and descendant, :scope, :not, attribute
// operators), classList, dataset, inline style, isConnected, its snapshots and its markup reader.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { install, html, outline, parseHTML } from "./dom.mjs";

let doc;
before(() => { doc = install(); });

/** <div id=root class=stage> <ol class=msgs data-testid=outputs> <li class="msg long-more"> … */
function tree() {
  const el = (tag, attrs = {}, ...kids) => {
    const e = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...kids);
    return e;
  };
  return el("div", { id: "root", class: "stage" },
    el("ol", { class: "msgs", "data-testid": "outputs" },
      el("li", { class: "msg long-more" }, el("span", { class: "long-more-text" }, "… 3 more"), el("button", { hidden: "" }, "Show")),
      el("li", { class: "msg msg-chunk", "data-vnode": "0" }, el("span", { class: "chip vis" }, "+(1,100)")),
      el("li", { class: "msg msg-barrier", "data-vnode": "12" }, el("span", { class: "pill barrier" }, "B e4"))),
    el("table", {}, el("tbody", {}, el("tr", { class: "long-more" }, el("td", { colspan: "5" }, "more")), el("tr", {}, el("td", {}, "v0")))));
}

const texts = (els) => els.map((e) => e.textContent);

test("selectors: tags, classes, ids, attributes, lists and the combinators", () => {
  const root = tree();
  assert.deepEqual(texts(root.querySelectorAll("li.msg-chunk, li.msg-barrier")), ["+(1,100)", "B e4"]);
  assert.deepEqual(texts(root.querySelectorAll('[data-testid="outputs"] > li:not(.long-more)')), ["+(1,100)", "B e4"]);
  assert.deepEqual(texts(root.querySelectorAll("ol > .chip")), [], "> is a child, not a descendant");
  assert.deepEqual(texts(root.querySelectorAll("ol .chip")), ["+(1,100)"]);
  assert.deepEqual(texts(root.querySelectorAll("[data-vnode^='1']")), ["B e4"]);
  assert.deepEqual(texts(root.querySelectorAll("[class~=vis], [data-vnode$=\"2\"] .pill")), ["+(1,100)", "B e4"]);
  assert.deepEqual(texts(root.querySelectorAll("button:not([hidden])")), []);
  assert.equal(root.querySelectorAll("*").length, 14);
  assert.equal(root.querySelector("tr:not(.long-more) td").textContent, "v0");
  assert.equal(root.querySelector("tr.long-more td").colSpan, 5);
  assert.equal(root.querySelector("li:first-child").classList.contains("long-more"), true);
  assert.equal(root.querySelector("li:last-child").dataset.vnode, "12");
  assert.equal(root.querySelector("#root > ol").dataset.testid, "outputs");
  assert.equal(root.querySelector(".chip").closest("li.msg:not(.long-more)").dataset.vnode, "0");
});

test(":scope is the element queried (the document's root element from the document)", () => {
  const root = tree();
  const ol = root.querySelector("ol");
  assert.deepEqual(texts(ol.querySelectorAll(":scope > .msg:not(.long-more)")), ["+(1,100)", "B e4"]);
  assert.equal(ol.querySelector(":scope > .chip"), null);
  assert.equal(root.querySelector(":scope > ol"), ol);
  doc.body.append(root);
  assert.equal(doc.querySelector(":scope > body > #root"), root);
  assert.equal(doc.getElementById("root"), root);
  root.remove();
});

test("a selector it does not know is an error, never a silent miss", () => {
  const root = tree();
  for (const bad of ["li:hover", "li + li", "a ~ b", "li::before", "", "li,", "> li"]) {
    assert.throws(() => root.querySelectorAll(bad), /more than this DOM knows/, bad);
  }
});

test("classList, dataset, reflected properties, style, isConnected and focus", () => {
  const div = doc.createElement("div");
  div.classList.add("a", "b");
  div.classList.toggle("a");
  div.classList.toggle("c", true);
  assert.equal(div.className, "b c");
  div.dataset.rolledBack = "4";
  assert.equal(div.getAttribute("data-rolled-back"), "4");
  assert.equal("rolledBack" in div.dataset, true);
  delete div.dataset.rolledBack;
  assert.equal(div.hasAttribute("data-rolled-back"), false);
  div.hidden = true;
  div.title = "t";
  div.style.width = "12%";
  div.style.marginTop = "1px";
  assert.equal(div.getAttribute("style"), "width: 12%; margin-top: 1px;");
  div.style.marginTop = "";
  assert.equal(div.style.width, "12%");
  assert.equal(html(div), '<div class="b c" hidden title="t" style="width: 12%;"></div>');
  assert.equal(div.isConnected, false);
  doc.body.append(div);
  assert.equal(div.isConnected, true);
  div.focus();
  assert.equal(doc.activeElement, div);
  div.blur();
  assert.equal(doc.activeElement, null);
  div.remove();
});

test("snapshots: html escapes text and attributes; outline puts one node a line", () => {
  const p = doc.createElement("p");
  p.setAttribute("title", 'a "b" <c>');
  p.append("x < y & z", doc.createElement("b"));
  p.lastChild.append("bold");
  assert.equal(html(p), '<p title="a &quot;b&quot; &lt;c&gt;">x &lt; y &amp; z<b>bold</b></p>');
  assert.equal(outline(p), '<p title="a &quot;b&quot; &lt;c&gt;">\n  "x < y & z"\n  <b>bold</b>\n</p>');
});

test("parseHTML reads the page's markup: attributes, entities, void elements, script bodies", () => {
  const f = parseHTML(`<!doctype html><!-- c --><div id="a" class='x y' hidden data-k=v>a &amp; b &#9654;<br><input type="text"><script>if (a < b) x();</script><p>t</p></div>`);
  const div = f.querySelector("#a");
  assert.equal(html(div), '<div id="a" class="x y" hidden data-k="v">a &amp; b ▶<br><input type="text"><script>if (a &lt; b) x();</script><p>t</p></div>');
  assert.deepEqual(div.children.map((c) => c.localName), ["br", "input", "script", "p"]);
  assert.throws(() => parseHTML("<div><p></div>"), /closes <p>/);
  assert.throws(() => parseHTML("<div>"), /not closed/);
});
