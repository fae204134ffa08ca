"""The client script and style sheet of the ``webcomponents`` portal.

Vanilla custom elements; every piece of page content is rendered into an OPEN
shadow root (often nested: cards, accordions, tabs and news lists each have
their own shadow root inside the page's).
"""

from __future__ import annotations

SITE_CSS = """
body { margin: 0; font-family: system-ui, sans-serif; color: #1d2433; background: #f6f7fb; }
main { max-width: 980px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
"""

NIT_JS = r"""
(function () {
  "use strict";

  var NAV = [
    ["Study", "/study/"],
    ["Campus life", "/campus-life/"],
    ["Research", "/research/"],
    ["News", "/news/"],
    ["About", "/about/"]
  ];
  var FOOTER = [
    ["Contact", "/about/contact/"],
    ["Staff directory", "/about/staff/"],
    ["Privacy", "/privacy/"]
  ];

  var BASE_CSS =
    ":host { display: block; }" +
    "h1 { font-size: 2rem; margin: .5rem 0 1rem; }" +
    "h2 { font-size: 1.35rem; margin: 1.8rem 0 .6rem; }" +
    "h3 { font-size: 1.1rem; margin: .4rem 0; }" +
    "a { color: #0b4f9c; }" +
    "table { border-collapse: collapse; margin: .5rem 0; }" +
    "td, th { border: 1px solid #c9cfdc; padding: .3rem .6rem; text-align: left; }";

  function make(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  function shadow(host, css) {
    var root = host.attachShadow({ mode: "open" });
    root.appendChild(make("style", null, BASE_CSS + (css || "")));
    return root;
  }

  function renderBlocks(parent, blocks) {
    blocks.forEach(function (block) { parent.appendChild(renderBlock(block)); });
  }

  function renderBlock(block) {
    var section = make("section", { "class": "block block-" + block.type });
    if (block.heading) { section.appendChild(make("h2", null, block.heading)); }
    (block.paras || []).forEach(function (p) { section.appendChild(make("p", null, p)); });
    var child;
    switch (block.type) {
      case "cards":
        var grid = make("div", { "class": "cards" });
        block.cards.forEach(function (data) {
          var card = document.createElement("nit-card");
          card.data = data;
          grid.appendChild(card);
        });
        section.appendChild(grid);
        break;
      case "accordion":
        child = document.createElement("nit-accordion");
        child.data = block;
        section.appendChild(child);
        break;
      case "tabs":
        child = document.createElement("nit-tabs");
        child.data = block;
        section.appendChild(child);
        break;
      case "news":
        child = document.createElement("nit-news-list");
        child.data = block;
        section.appendChild(child);
        break;
      case "table":
        section.appendChild(renderTable(block.head, block.rows));
        break;
      case "links":
      case "files":
        var list = make("ul", { "class": block.type });
        block.links.forEach(function (link) {
          var item = make("li");
          item.appendChild(make("a", { href: link.href }, link.text));
          if (link.note) { item.appendChild(document.createTextNode(" (" + link.note + ")")); }
          list.appendChild(item);
        });
        section.appendChild(list);
        break;
      default:
        break;
    }
    return section;
  }

  function renderTable(head, rows) {
    var table = make("table");
    var tr = make("tr");
    head.forEach(function (cell) { tr.appendChild(make("th", null, cell)); });
    table.appendChild(tr);
    rows.forEach(function (row) {
      var r = make("tr");
      row.forEach(function (cell) { r.appendChild(make("td", null, cell)); });
      table.appendChild(r);
    });
    return table;
  }

  class NitHeader extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) { return; }
      var root = shadow(this,
        "header { background: #0b2545; color: #fff; padding: .8rem 1.5rem; display: flex;" +
        " gap: 2rem; align-items: center; flex-wrap: wrap; }" +
        "header a { color: #fff; text-decoration: none; }" +
        ".brand { font-weight: 700; font-size: 1.1rem; }" +
        "ul { list-style: none; display: flex; gap: 1.2rem; margin: 0; padding: 0; }" +
        "a[aria-current] { text-decoration: underline; }");
      var current = this.getAttribute("current") || "";
      var header = make("header");
      header.appendChild(make("a", { "class": "brand", href: "/" }, "Northgate Institute of Technology"));
      var nav = make("nav", { "aria-label": "Main" });
      var ul = make("ul");
      NAV.forEach(function (item) {
        var li = make("li");
        var a = make("a", { href: item[1] }, item[0]);
        if (current.indexOf(item[1]) === 0) { a.setAttribute("aria-current", "page"); }
        li.appendChild(a);
        ul.appendChild(li);
      });
      nav.appendChild(ul);
      header.appendChild(nav);
      root.appendChild(header);
    }
  }

  class NitFooter extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) { return; }
      var root = shadow(this,
        "footer { background: #13315c; color: #dfe7f5; padding: 1.5rem; margin-top: 2rem; }" +
        "footer a { color: #dfe7f5; margin-right: 1.2rem; }");
      var footer = make("footer");
      footer.appendChild(make("p", null,
        "Northgate Institute of Technology, 12 Quayside Road, Northgate. Registered charity NI-40917."));
      var nav = make("nav", { "aria-label": "Footer" });
      FOOTER.forEach(function (item) { nav.appendChild(make("a", { href: item[1] }, item[0])); });
      footer.appendChild(nav);
      root.appendChild(footer);
    }
  }

  class NitPage extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) { return; }
      var source = document.getElementById("nit-data");
      var data = JSON.parse(source ? source.textContent : "{}");
      var root = shadow(this,
        ".crumbs { font-size: .85rem; color: #55607a; }" +
        ".crumbs a { margin-right: .4rem; }" +
        ".cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 1rem; }" +
        ".lead { font-size: 1.1rem; }");
      if (data.breadcrumb && data.breadcrumb.length) {
        var crumbs = make("nav", { "class": "crumbs", "aria-label": "Breadcrumb" });
        data.breadcrumb.forEach(function (c) {
          crumbs.appendChild(make("a", { href: c[1] }, c[0]));
          crumbs.appendChild(document.createTextNode("/ "));
        });
        root.appendChild(crumbs);
      }
      var article = make("article");
      article.appendChild(make("h1", null, data.title || ""));
      (data.intro || []).forEach(function (p) { article.appendChild(make("p", { "class": "lead" }, p)); });
      renderBlocks(article, data.blocks || []);
      root.appendChild(article);
    }
  }

  class NitCard extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot || !this.data) { return; }
      var d = this.data;
      var root = shadow(this,
        ".card { background: #fff; border: 1px solid #d7dce8; border-radius: 8px; padding: 1rem; height: 100%; box-sizing: border-box; }" +
        ".meta { color: #55607a; font-size: .85rem; }");
      var card = make("div", { "class": "card" });
      card.appendChild(make("h3", null, d.title));
      if (d.meta) { card.appendChild(make("p", { "class": "meta" }, d.meta)); }
      card.appendChild(make("p", null, d.text));
      card.appendChild(make("a", { href: d.href }, d.link || "Learn more"));
      root.appendChild(card);
    }
  }

  class NitAccordion extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot || !this.data) { return; }
      var root = shadow(this,
        ".item { border-bottom: 1px solid #d7dce8; }" +
        "button { all: unset; cursor: pointer; display: block; width: 100%; padding: .7rem 0; font-weight: 600; }" +
        "button::after { content: ' +'; }" +
        "button[aria-expanded=true]::after { content: ' \u2212'; }" +
        /* Collapsed like many CMS accordions: clipped to zero height, text still in the DOM. */
        ".panel { max-height: 0; overflow: hidden; transition: max-height .2s ease; }" +
        ".panel.open { max-height: 60rem; }");
      var id = this.data.id || "acc";
      this.data.items.forEach(function (item, i) {
        var wrap = make("div", { "class": "item" });
        var h = make("h3");
        var button = make("button", {
          type: "button", "aria-expanded": "false", "aria-controls": id + "-panel-" + i
        }, item.title);
        var panel = make("div", {
          "class": "panel", id: id + "-panel-" + i, role: "region", "aria-hidden": "true"
        });
        (item.paras || []).forEach(function (p) { panel.appendChild(make("p", null, p)); });
        (item.links || []).forEach(function (link) {
          var p = make("p");
          p.appendChild(make("a", { href: link.href }, link.text));
          panel.appendChild(p);
        });
        button.addEventListener("click", function () {
          var open = button.getAttribute("aria-expanded") !== "true";
          button.setAttribute("aria-expanded", String(open));
          panel.setAttribute("aria-hidden", String(!open));
          panel.classList.toggle("open", open);
        });
        h.appendChild(button);
        wrap.appendChild(h);
        wrap.appendChild(panel);
        root.appendChild(wrap);
      });
    }
  }

  class NitTabs extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot || !this.data) { return; }
      var self = this;
      var d = this.data;
      var root = shadow(this,
        "[role=tablist] { display: flex; gap: .3rem; border-bottom: 2px solid #0b2545; }" +
        "[role=tab] { all: unset; cursor: pointer; padding: .5rem 1rem; background: #e6eaf3; color: #0b2545; }" +
        "[role=tab][aria-selected=true] { background: #0b2545; color: #fff; }" +
        "[role=tabpanel] { padding: .5rem 0; min-height: 4rem; }");
      var list = make("div", { role: "tablist", "aria-label": d.label || "Sections" });
      this.panel = make("div", { role: "tabpanel", id: "panel" });
      this.tabs = {};
      d.tabs.forEach(function (tab) {
        var node;
        if (tab.href) {
          node = make("a", { role: "tab", href: tab.href, "aria-selected": "false", "aria-controls": "panel" }, tab.label);
        } else {
          node = make("button", { role: "tab", type: "button", "aria-selected": "false", "aria-controls": "panel" }, tab.label);
        }
        node.addEventListener("click", function (event) {
          event.preventDefault();
          if (tab.href && location.pathname !== tab.href) {
            history.pushState({ tab: tab.id }, "", tab.href);
          }
          self.select(tab.id);
        });
        self.tabs[tab.id] = node;
        list.appendChild(node);
      });
      root.appendChild(list);
      root.appendChild(this.panel);
      window.addEventListener("popstate", function (event) {
        if (event.state && event.state.tab) { self.select(event.state.tab); }
      });
      if (d.active) {
        history.replaceState({ tab: d.active }, "", location.href);
        this.select(d.active);
      } else {
        this.panel.appendChild(make("p", null, "Choose a section above."));
      }
    }

    select(id) {
      var self = this;
      Object.keys(this.tabs).forEach(function (key) {
        self.tabs[key].setAttribute("aria-selected", String(key === id));
      });
      this.panel.textContent = "";
      this.panel.appendChild(make("p", { "class": "loading" }, "Loading\u2026"));
      var wanted = id;
      this.current = id;
      // Panels are fetched only when their tab is activated (click, or the tab's own URL).
      fetch(this.data.src + "/" + encodeURIComponent(id))
        .then(function (r) { return r.json(); })
        .then(function (json) {
          if (self.current !== wanted) { return; }
          self.panel.textContent = "";
          renderBlocks(self.panel, json.blocks || []);
        });
    }
  }

  class NitNewsList extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot || !this.data) { return; }
      var self = this;
      var d = this.data;
      var root = shadow(this,
        "ol { list-style: none; padding: 0; }" +
        "li { background: #fff; border: 1px solid #d7dce8; border-radius: 6px; padding: .6rem 1rem; margin: .5rem 0; }" +
        ".date { color: #55607a; font-size: .85rem; }" +
        "button { padding: .5rem 1.2rem; font-size: 1rem; }");
      this.list = make("ol");
      root.appendChild(this.list);
      this.offset = 0;
      this.pageSize = d.pageSize || 6;
      if (d.more) {
        this.button = make("button", { type: "button", "class": "load-more" }, "Load more");
        this.button.hidden = true;
        this.button.addEventListener("click", function () { self.load(); });
        root.appendChild(this.button);
      }
      this.load();
    }

    load() {
      var self = this;
      var url = this.data.src + "?offset=" + this.offset + "&limit=" + this.pageSize;
      if (this.button) { this.button.disabled = true; }
      fetch(url).then(function (r) { return r.json(); }).then(function (json) {
        json.items.forEach(function (item) {
          var li = make("li");
          var h = make("h3");
          h.appendChild(make("a", { href: item.href }, item.title));
          li.appendChild(h);
          li.appendChild(make("p", { "class": "date" }, item.date));
          li.appendChild(make("p", null, item.summary));
          self.list.appendChild(li);
        });
        self.offset += json.items.length;
        if (self.button) {
          self.button.disabled = false;
          self.button.hidden = !json.more;
        }
      });
    }
  }

  customElements.define("nit-header", NitHeader);
  customElements.define("nit-footer", NitFooter);
  customElements.define("nit-card", NitCard);
  customElements.define("nit-accordion", NitAccordion);
  customElements.define("nit-tabs", NitTabs);
  customElements.define("nit-news-list", NitNewsList);
  customElements.define("nit-page", NitPage);
})();
"""
