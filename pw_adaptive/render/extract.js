// pw_adaptive in-page extraction, evaluated as one function expression.
//
// opts.mode === "extract" (default) walks the composed tree (open shadow roots
// flattened, slots replaced by their assigned nodes) once and returns:
//   html      the main content as minimal HTML for markdownify: navigation,
//             page header and footer, cookie banners and hidden UI left out;
//             hidden tab/accordion panels kept; scripts, styles, SVG, iframes,
//             form controls and all attributes but href/alt/colspan dropped;
//             a typeset formula as its TeX source (or MathML tokens) once
//   text      the same content as plain text, "\n" between blocks
//   headings  h1-h3 texts of the main content; title; canonical
//   links     every a[href], area[href] and router link (routerlink,
//             data-href, data-url, data-link, data-route with a URL value)
//             with text, accessible name, region, context heading, visibility
//   clicks    click-only candidates (role=link, href="#" anchors, [onclick],
//             buttons, outermost cursor:pointer elements) with their ordinal,
//             text, accessible name, region, context heading and teaser
// opts.mode === "mark" runs the same candidate selection on a copy of the
// page and marks each candidate with data-pw-adaptive-click="<ordinal>" (old marks
// taken off first).
(opts) => {
  "use strict";
  const mode = (opts && opts.mode) || "extract";
  const maxCandidates = (opts && opts.maxCandidates) || 200;
  // Bounds for huge documents (a 10 MB DOM): elements visited and text kept.
  const maxElements = (opts && opts.maxElements) || Infinity;
  const maxChars = (opts && opts.maxChars) || Infinity;
  let visited = 0;
  let chars = 0;
  let truncated = false;
  const HTML_NS = "http://www.w3.org/1999/xhtml";
  // Longest card text taken as a link's teaser: a card is a title and a line
  // or two; anything longer is a section whose text is about many links.
  const TEASER_MAX = 320;

  const SKIP = new Set([
    "script", "style", "noscript", "template", "svg", "math", "iframe", "frame", "frameset",
    "object", "embed", "canvas", "link", "meta", "head", "title", "base", "audio", "video",
    "source", "track", "picture", "select", "option", "optgroup", "datalist", "input",
    "textarea", "progress", "meter",
  ]);
  // Tags markdownify converts as they are; any other tag becomes div or span by display.
  const KEEP = new Set([
    "a", "b", "strong", "i", "em", "code", "kbd", "samp", "pre", "blockquote", "br", "hr",
    "img", "ul", "ol", "li", "dl", "dt", "dd", "p", "table", "thead", "tbody", "tfoot", "tr",
    "td", "th", "caption", "figcaption", "del", "s", "sub", "sup", "q", "div", "article",
    "section", "h1", "h2", "h3", "h4", "h5", "h6",
  ]);
  const VOID = new Set(["br", "hr", "img"]);
  const INLINE_OUT = new Set([
    "a", "span", "b", "strong", "i", "em", "code", "kbd", "samp", "del", "s", "sub", "sup", "q",
    "img", "br",
  ]);
  const BLOCK_DISPLAY = /^(block|flex|grid|list-item|table|flow-root)/;
  const HEADING_TAG = /^h([1-6])$/;
  const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);
  // Landmarks named only by id/class on div soup (exact tokens; "card-header" is not one).
  const NAV_TOKENS = new Set([
    "nav", "navbar", "navigation", "main-nav", "site-nav", "global-nav", "main-menu",
    "primary-menu", "primary-nav", "megamenu", "mega-menu", "breadcrumb", "breadcrumbs",
    "crumbs", "crumb", "skip-links", "skiplinks",
  ]);
  const HEADER_TOKENS = new Set([
    "header", "site-header", "global-header", "page-top", "masthead", "main-header", "topbar",
    "top-bar",
  ]);
  const FOOTER_TOKENS = new Set([
    "footer", "site-footer", "global-footer", "page-footer", "main-footer", "colophon",
  ]);
  const ASIDE_TOKENS = new Set(["sidebar", "side-bar"]);
  // Cookie and consent notices, by the names their markup uses (consent
  // platforms' ids and classes are the same in every language).
  const BOILER_RE = /cookie|consent|gdpr|ccpa|onetrust|cookiebot|didomi|usercentrics|truste|osano|iubenda|termly|klaro|cmplz|cc-window|cc-banner/i;
  const NOTICE_ROLES = new Set(["dialog", "alertdialog", "alert", "status", "region", "banner"]);
  const CONTROLS = "button,[role=button],select,input,textarea,label,summary";
  // Skip links ("Skip to main content", "Zum Inhalt springen", "跳至主要內容"),
  // by structure: an in-page link named skip-something, or one of the links
  // that come before any other focusable element of the page.
  const SKIP_RE = /(^|[\s_-])skip/i;
  // A hidden element is UI chrome (dropped) when it looks like these ...
  const HIDDEN_DROP_RE = /modal|dialog|popup|pop-up|overlay|cookie|consent|toast|tooltip|spinner|loader|loading|skeleton|lightbox|error|alert|notification|dropdown/i;
  // ... and a collapsed panel (kept) when it looks like these.
  const PANEL_RE = /tab|panel|pane\b|accordion|collaps|expand|faq|answer|disclosure|toggle|reveal|spoiler|read-?more/i;
  const NON_NAV_ROLES = new Set([
    "tab", "menuitemcheckbox", "menuitemradio", "switch", "checkbox", "radio", "option",
    "slider", "combobox", "textbox", "searchbox", "spinbutton", "scrollbar", "tooltip",
  ]);
  // A slideshow's widget, by the class of the library that draws it
  // ("carousel-control-next", "swiper-button-prev", "slick-arrow",
  // "splide__arrow", "owl-carousel"): its arrows and dots turn slides, they
  // never navigate, and a click explored on them is time spent for nothing.
  const SLIDESHOW_CLASS_RE = /^(carousel|slider|swiper|slick|splide|glide|flickity|slideshow|owl)([_-]|$)/i;
  const isSlideshow = (el) => (el.getAttribute("class") || "").split(/\s+/)
    .some((token) => SLIDESHOW_CLASS_RE.test(token));
  const INTERACTIVE = new Set(["a", "button", "label", "summary", "details", "body", "html"]);
  // Clicking these could change state on the server or in the session, or only changes
  // the page in place (a "Load more" appends; a "Menu" button opens a menu).
  const DESTRUCTIVE_RE = /\b(delete|remove|log ?out|sign ?out|log ?off|submit|unsubscribe|cancel|reset|clear|buy|pay|checkout|purchase|print|close|dismiss|accept|reject|decline|agree|share|like|copy|download|play|pause|mute|slide|load more|show (more|less|all)|expand|collapse|toggle|menu|search)\b/i;
  const ROUTER_ATTRS = ["routerlink", "ng-reflect-router-link", "data-href", "data-url", "data-link", "data-route"];
  const URLISH = /^(\/|#|\.\.?\/|https?:)/i;
  const LISTS = new Set(["ul", "ol", "dl", "menu", "table", "thead", "tbody", "tfoot"]);
  const CLIMB = 5;

  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const escText = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const escAttr = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const absUrl = (value, el) => {
    try { return new URL(value.trim(), el.baseURI || document.baseURI).href; } catch (e) { return null; }
  };
  const isHttp = (url) => /^https?:/i.test(url || "");
  const tokensOf = (el) => {
    const cls = typeof el.className === "string" ? el.className : el.getAttribute("class") || "";
    return (el.id + " " + cls).toLowerCase();
  };

  let controlled = null; // ids named by aria-controls anywhere, computed on first need
  const controlledIds = () => {
    if (controlled) return controlled;
    controlled = new Set();
    const visit = (root) => {
      for (const el of root.querySelectorAll("[aria-controls]")) {
        for (const id of (el.getAttribute("aria-controls") || "").split(/\s+/)) if (id) controlled.add(id);
      }
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(document);
    return controlled;
  };

  const landmarkOf = (el, tag, role, sectioned) => {
    if (tag === "nav" || role === "navigation") return "nav";
    if (tag === "aside" || role === "complementary") return "aside";
    if (role === "contentinfo") return "footer";
    if (role === "banner") return "header";
    if (tag === "main" || role === "main") return "main";
    // header/footer are page landmarks only outside sectioning content (HTML-AAM).
    if (tag === "footer") return sectioned ? "" : "footer";
    if (tag === "header") return sectioned ? "" : "header";
    if (tag === "body" || tag === "html") return "";
    for (const t of tokensOf(el).split(/\s+/)) {
      if (NAV_TOKENS.has(t)) return "nav";
      if (ASIDE_TOKENS.has(t)) return "aside";
      if (!sectioned && FOOTER_TOKENS.has(t)) return "footer";
      if (!sectioned && HEADER_TOKENS.has(t)) return "header";
    }
    return "";
  };

  // A typeset formula (KaTeX, MathJax 3) is drawn twice: a layout of
  // hundreds of nested boxes hidden from assistive technology
  // (aria-hidden="true") and, beside it, MathML for screen readers. The
  // markdown takes the formula once, from the MathML: its TeX source when the
  // page kept it as an annotation, else its tokens. The drawing is skipped
  // (on a lecture page it was 8,000 spans, and most of a page's conversion).
  const TEX_NOTE = 'annotation[encoding="application/x-tex"], annotation[encoding="TeX"]';
  const formulaText = (el) => {
    const note = el.querySelector(TEX_NOTE);
    const source = squash(note ? note.textContent : el.getAttribute("alttext"));
    if (source) return el.getAttribute("display") === "block" ? `$$${source}$$` : `$${source}$`;
    return squash(Array.from(el.querySelectorAll("mi, mn, mo, mtext, ms"))
      .map((token) => token.textContent).join(" "));
  };
  const drawsFormula = (el) => {
    const parent = el.parentElement;
    if (!parent) return false;
    for (const sibling of parent.children) {
      if (sibling === el) continue;
      if (sibling.localName === "math") return true;
      const first = sibling.firstElementChild;
      if (first && first.localName === "math" && !first.nextElementSibling) return true;
    }
    return false;
  };

  // Whether the text of el is mostly that of buttons and form controls: a
  // toolbar (font size, contrast, share, chat launcher), not content.
  const controlsOnly = (el) => {
    const total = squash(el.textContent).length;
    if (!total || !el.querySelector(CONTROLS)) return false;
    let controls = 0;
    for (const c of el.querySelectorAll(CONTROLS)) controls += squash(c.textContent).length;
    return controls >= 0.5 * total;
  };
  // Whether el is a list of links: at least 5, holding 80% of its text or more.
  const linkList = (el) => {
    const anchors = el.querySelectorAll("a[href]");
    if (anchors.length < 5) return false;
    const total = squash(el.textContent).length;
    let linked = 0;
    for (const a of anchors) linked += squash(a.textContent).length;
    return linked >= 0.8 * total;
  };
  // A cookie or consent notice: named so (id, class, tag or aria-label), and
  // shaped like a notice: floating, announced, or asking for a click.
  const isConsentNotice = (el, tag, role, st) => {
    if (!BOILER_RE.test(tokensOf(el) + " " + tag + " " + (el.getAttribute("aria-label") || ""))) return false;
    return st.position === "fixed" || st.position === "sticky" || st.position === "absolute" ||
      NOTICE_ROLES.has(role) || el.hasAttribute("aria-live") || !!el.querySelector(CONTROLS);
  };
  let onlySkipLinksSoFar = true;
  const FOCUSABLE = new Set(["a", "area", "button", "input", "select", "textarea", "summary"]);
  // In-page fragment of a link ("main-content" for href="#main-content"), or ""
  // (hash routes "#/fees" and "#!/fees" are other pages of a single-page app).
  const inPageFragment = (el, tag) => {
    if (tag !== "a" || !el.hasAttribute("href")) return "";
    const raw = (el.getAttribute("href") || "").trim();
    const url = absUrl(raw, el);
    if (!url || url.split("#")[0] !== location.href.split("#")[0]) return "";
    const fragment = url.includes("#") ? url.slice(url.indexOf("#") + 1) : "";
    return /^[!/]/.test(fragment) ? "" : fragment;
  };
  const isSkipLink = (el, tag) => {
    const fragment = inPageFragment(el, tag);
    if (!fragment) return false;
    if (SKIP_RE.test(tokensOf(el))) return true;
    if (!onlySkipLinksSoFar || lastHeading) return false;
    let id = fragment;
    try { id = decodeURIComponent(fragment); } catch (e) { /* keep it raw */ }
    return !!(document.getElementById(id) || document.getElementsByName(id).length);
  };

  const keepHidden = (el, tag, role) => {
    if (tag === "dialog" || role === "dialog" || role === "alertdialog" || role === "alert" ||
        role === "status" || role === "tooltip" || role === "menu" || role === "listbox") return false;
    const tokens = tokensOf(el);
    if (HIDDEN_DROP_RE.test(tokens)) return false;
    // A hidden button ("back to top" until the page scrolls) is UI, not a panel.
    if (tag === "button" || role === "button" || controlsOnly(el)) return false;
    if (role === "tabpanel" || role === "region" || el.hasAttribute("hidden")) return true;
    if (el.getAttribute("aria-hidden") === "true") return true;
    if (el.id && controlledIds().has(el.id)) return true;
    return PANEL_RE.test(tokens) || alternatePane(el);
  };

  // A hidden element is one of a set of alternative panes (tabs built without
  // ARIA roles or panel classes: one year's table of several, one shown) when
  // a block sibling of the same tag is shown and the two have the same classes
  // but for at most one on each side (the one that hides it). A pane says
  // something of its own (PANE_MIN_CHARS: not a pager's arrow, a search box's
  // "no results", a date's other form) and is not a list of links (a hidden
  // store a script draws a few links from: its links are read anyway).
  const PANE_MIN_CHARS = 80;
  const classSet = (el) => new Set((el.getAttribute("class") || "").split(/\s+/).filter(Boolean));
  // Per parent, the tag and classes of its children shown as blocks with text:
  // read once, so a long hidden list costs one pass, not one per item.
  const shownChildren = new WeakMap();
  const shownOf = (parent) => {
    let shown = shownChildren.get(parent);
    if (!shown) {
      shown = [];
      for (const child of parent.children) {
        const st = getComputedStyle(child);
        if (st.display !== "none" && !st.display.startsWith("inline") && st.visibility !== "hidden" &&
            squash(child.textContent)) shown.push([child.tagName, classSet(child)]);
      }
      shownChildren.set(parent, shown);
    }
    return shown;
  };
  const alternatePane = (el) => {
    const parent = el.parentElement;
    if (!parent || parent.childElementCount < 2) return false;
    if (squash(el.textContent).length < PANE_MIN_CHARS || linkList(el)) return false;
    const mine = classSet(el);
    for (const [tag, theirs] of shownOf(parent)) {
      if (tag !== el.tagName) continue;
      let onlyMine = 0;
      let onlyTheirs = 0;
      for (const token of mine) if (!theirs.has(token)) onlyMine += 1;
      for (const token of theirs) if (!mine.has(token)) onlyTheirs += 1;
      if (onlyMine <= 1 && onlyTheirs <= 1) return true;
    }
    return false;
  };

  const accessibleName = (el) => {
    let name = squash(el.getAttribute("aria-label"));
    if (!name && el.hasAttribute("aria-labelledby")) {
      const root = el.getRootNode();
      const byId = (id) => (root.getElementById ? root.getElementById(id) : document.getElementById(id));
      name = squash((el.getAttribute("aria-labelledby") || "").split(/\s+/)
        .map((id) => { const t = id && byId(id); return t ? t.textContent : ""; }).join(" "));
    }
    if (!name) name = squash(el.getAttribute("title"));
    if (!name) { const img = el.querySelector("img[alt]"); if (img) name = squash(img.getAttribute("alt")); }
    if (!name) { const t = el.querySelector("svg title"); if (t) name = squash(t.textContent); }
    if (!name) { const c = el.querySelector("[aria-label]"); if (c) name = squash(c.getAttribute("aria-label")); }
    return name;
  };

  const isVisible = (el, ctx) => {
    if (ctx.hidden || ctx.ariaHidden) return false;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return true;
    for (const c of el.children) { const cr = c.getBoundingClientRect(); if (cr.width > 0 && cr.height > 0) return true; }
    return false;
  };

  // Where a link points: {url} for a real target, {dead: true} for href="#"/javascript:
  // or an empty href (also {empty: true}: a click reloads the page unless a script stops it).
  const targetOf = (el, tag) => {
    if ((tag === "a" || tag === "area") && el.hasAttribute("href")) {
      const raw = (el.getAttribute("href") || "").trim();
      if (raw === "") return { dead: true, empty: true };
      if (raw === "#" || /^javascript:/i.test(raw)) return { dead: true };
      const url = absUrl(raw, el);
      return url && isHttp(url) ? { url } : { skip: true };
    }
    for (const attr of ROUTER_ATTRS) {
      const raw = (el.getAttribute(attr) || "").trim();
      if (!raw) continue;
      if (attr.startsWith("data-") && !URLISH.test(raw)) return null;
      if (/[\s{}()[\]]/.test(raw)) return null;
      const url = absUrl(raw, el);
      return url && isHttp(url) ? { url } : { skip: true };
    }
    return null;
  };

  // A structural path of tag names (no classes or positions: "active" and the
  // number of items change from page to page), to know a candidate again on
  // another page of the same site.
  const pathOf = (el) => {
    const parts = [];
    for (let node = el, i = 0; node && node.nodeType === 1 && i < 8; node = parentOf(node), i++) {
      parts.push(node.localName);
    }
    return parts.reverse().join(">");
  };
  // The aria-label of an element's parent: the group of siblings it belongs to.
  const groupLabel = (el) => {
    const parent = parentOf(el);
    return parent && parent.getAttribute ? squash(parent.getAttribute("aria-label") || "").slice(0, 60) : "";
  };
  const GROUP_TAGS = new Set(["ul", "ol", "menu", "nav", "dl"]);
  const GROUP_ROLES = new Set(["group", "menu", "list", "tree", "navigation"]);
  // A group header: the element right before it (or before its wrapper) is a
  // list or menu holding links, which are extracted from the DOM whether the
  // group is open or not (hidden a[href] are real navigation). Clicking it
  // only opens or closes the group.
  const isGroupHeader = (el) => {
    let node = el;
    for (let i = 0; i < 2 && node; i++) {
      const next = node.nextElementSibling;
      if (next) {
        const role = (next.getAttribute("role") || "").toLowerCase();
        const listy = GROUP_TAGS.has(next.localName) || GROUP_ROLES.has(role) ||
          (next.firstElementChild && GROUP_TAGS.has(next.firstElementChild.localName));
        if (listy && next.querySelector("a[href]")) return true;
        return false;
      }
      node = node.parentElement;
      if (node && (node.children.length > 1 || node.querySelector("a[href]"))) return false;
    }
    return false;
  };

  // A collapsed group of a navigation menu that renders its items only once
  // it is opened (Docusaurus 2 and 3 mount a collapsed sidebar category's list
  // on its first opening): the toggle is an item of a menu list, and its item
  // holds nothing but the toggle, no list, no other text, no other link. Its
  // links are in no DOM, so it is worth a click, which renders them.
  const ITEM_ROLES = new Set(["listitem", "treeitem", "menuitem", "none", "presentation"]);
  // Whether a menu item holds nothing but its toggle: no other link, no
  // list, no other text (``own``, the toggle's text).
  const holdsOnly = (item, el, own) => {
    for (const a of item.querySelectorAll("a[href], [role=link]")) {
      if (a !== el && !el.contains(a)) return false;
    }
    return !item.querySelector("ul, ol, [role=group], [role=tree]") && squash(item.textContent) === own;
  };
  const lazyItem = (el, ctx) => {
    if (ctx.region !== "nav" && ctx.region !== "aside") return false;
    const own = squash(el.textContent);
    if (!own) return false;
    let item = el.parentElement;
    for (let i = 0; i < 3 && item; i++, item = item.parentElement) {
      const itemRole = (item.getAttribute("role") || "").toLowerCase();
      if (item.localName !== "li" && !ITEM_ROLES.has(itemRole)) continue;
      const list = item.parentElement;
      const listRole = list ? (list.getAttribute("role") || "").toLowerCase() : "";
      if (!list || !(GROUP_TAGS.has(list.localName) || GROUP_ROLES.has(listRole))) return false;
      return holdsOnly(item, el, own);
    }
    return false;
  };
  // The same group in a menu built of plain blocks instead of a list
  // (Vuetify's v-list-group: a div around a role=button header and, once
  // opened, its items; before, nothing else): the toggle's wrapper holds
  // only the toggle, and the wrapper is one of several entries of a menu
  // that holds links.
  const lazyBlock = (el, ctx) => {
    if (ctx.region !== "nav" && ctx.region !== "aside") return false;
    const own = squash(el.textContent);
    const item = el.parentElement;
    const menu = item && item.parentElement;
    if (!own || !menu || menu.children.length < 2 || !holdsOnly(item, el, own)) return false;
    for (const a of menu.querySelectorAll("a[href]")) {
      if (!item.contains(a)) return true;
    }
    return false;
  };
  const lazyGroup = (el, ctx) => {
    if (el.getAttribute("aria-expanded") !== "false") return false;
    const controlled = el.getAttribute("aria-controls");
    if (controlled && document.getElementById(controlled)) return false; // there, read
    return lazyItem(el, ctx) || lazyBlock(el, ctx);
  };

  const clickPriority = (el, tag, role, target, ctx, style) => {
    if (ctx.inLink || ctx.inForm || ctx.hidden) return -1;
    // A slideshow's buttons, arrows and bullets (an "onclick" there turns a
    // slide); an element there marked as a link (role=link, a route, a dead
    // href) may still lead somewhere.
    if (ctx.slideshow && !(target && target.dead) && role !== "link" &&
        !el.hasAttribute("data-route")) return -1;
    if (tag === "summary") return -1; // opens its <details>, whose content is extracted anyway
    if (el.hasAttribute("disabled") || el.getAttribute("aria-disabled") === "true") return -1;
    // Toggles open menus, tabs and accordions; their content is extracted
    // anyway, unless it is rendered only once opened.
    if (el.hasAttribute("aria-expanded") || el.hasAttribute("aria-haspopup") ||
        el.hasAttribute("aria-controls") || el.hasAttribute("aria-pressed") ||
        el.hasAttribute("data-toggle") || el.hasAttribute("data-bs-toggle")) {
      return lazyGroup(el, ctx) ? 1 : -1;
    }
    if (NON_NAV_ROLES.has(role)) return -1;
    if (role !== "link" && !(target && target.dead) && isGroupHeader(el)) return -1;
    if (target && target.dead) return 3;
    if (role === "link") return 3;
    if (el.hasAttribute("onclick") || el.hasAttribute("data-route")) return 2;
    if (tag === "button" || role === "button" || role === "menuitem") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      return type === "submit" || type === "reset" ? -1 : 1;
    }
    if (!INTERACTIVE.has(tag) && !ctx.pointer && style && style.cursor === "pointer" &&
        !el.querySelector("a[href],button,[role=button],[role=link],input,select")) return 0;
    return -1;
  };

  // Collected results.
  const html = [];
  const text = [];
  const headings = [];
  const links = [];
  const clicks = [];
  const frames = [];
  let lastHeading = "";
  let lastHeadingLandmark = 0;
  let landmarkCount = 0;
  let ordinal = 0;

  const registerHeading = (value, landmarkId) => {
    lastHeading = value;
    lastHeadingLandmark = landmarkId;
    for (const f of frames) { f.last = value; if (!f.first) f.first = value; }
  };
  // The heading of the card/list/section around the current element: the last heading
  // before it in the nearest of CLIMB enclosing elements that has one, else the
  // previous heading in document order within the same landmark; but a heading that follows it inside its own
  // element or the two around it (an image link above a card title) wins, unless a
  // list or table lies in between (that heading belongs to a sibling item).
  const contextHeading = (rec, landmarkId) => {
    rec.heading = lastHeadingLandmark === landmarkId ? lastHeading : "";
    let waiting = true;
    for (let i = frames.length - 1, n = 0; i >= 0 && n < CLIMB; i--, n++) {
      const f = frames[i];
      if (f.last) { rec.heading = f.last; return; }
      if (waiting && n <= 2 && !f.list) f.pending.push(rec); else waiting = false;
      if (f.barrier) return;
    }
  };

  const walkChildren = (el, ctx) => {
    let kids = el.childNodes;
    if (el.shadowRoot) kids = el.shadowRoot.childNodes;
    else if (el.localName === "slot" && el.assignedNodes) {
      const assigned = el.assignedNodes({ flatten: true });
      if (assigned.length) kids = assigned;
    }
    for (const k of Array.from(kids)) walk(k, ctx);
  };

  const walk = (node, ctx) => {
    if (truncated) return;
    if (node.nodeType === 3) {
      if (!ctx.out) return;
      let data = node.data;
      chars += data.length;
      if (chars > maxChars) {
        truncated = true;
        data = data.slice(0, Math.max(0, data.length - (chars - maxChars)));
      }
      html.push(escText(data));
      text.push(ctx.pre ? data : data.replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1) return;
    if (++visited > maxElements) { truncated = true; return; }
    const el = node;
    const tag = el.localName;
    // The MathML itself, or a box of no markdown meaning (a span, a custom
    // element) that holds nothing else: positioned off screen, and so laid
    // out as a block, it is taken inline all the same.
    const only = el.firstElementChild;
    if (tag === "math" || (only && only.localName === "math" && !only.nextElementSibling &&
        !KEEP.has(tag) && !HEADING_TAG.test(tag) && Array.from(el.childNodes).every((k) =>
          k === only || k.nodeType === 8 || (k.nodeType === 3 && !k.data.trim())))) {
      if (!ctx.out) return;
      const formula = formulaText(tag === "math" ? el : only);
      if (formula) {
        chars += formula.length;
        // Apart from the words around it, with one space each side.
        const last = html.length ? html[html.length - 1] : "";
        const lead = /\s$/.test(last) ? "" : " ";
        html.push(`${lead}${escText(formula)} `);
        text.push(`${lead}${formula} `);
      }
      return;
    }
    const ariaHidden = el.getAttribute("aria-hidden") === "true";
    if (ariaHidden && drawsFormula(el)) return;
    if (SKIP.has(tag) || (el.namespaceURI && el.namespaceURI !== HTML_NS)) return;
    const role = (el.getAttribute("role") || "").toLowerCase();
    const c = Object.assign({}, ctx);
    let barrier = tag === "body";
    let style = null;
    const styleOf = () => style || (style = getComputedStyle(el));

    const landmark = landmarkOf(el, tag, role, ctx.sectioned);
    if (landmark) {
      // A menu inside the page footer is a footer menu ("menus explore, footers rarely").
      c.region = ctx.region === "footer" && landmark !== "main" ? "footer" : landmark;
      landmarkCount += 1;
      c.landmarkId = landmarkCount;
      barrier = true;
      if (c.boilerplateOut && landmark !== "main" && landmark !== "aside") c.out = false;
      // An aside made of links is a menu (a documentation sidebar), not a box
      // of information beside the content.
      if (c.boilerplateOut && landmark === "aside" && linkList(el)) c.out = false;
    }
    if (SECTIONING.has(tag) || role === "article" || role === "region") c.sectioned = true;
    if (!c.hidden) {
      const st = styleOf();
      if (st.display === "none" || st.visibility === "hidden" || st.visibility === "collapse" ||
          st.contentVisibility === "hidden") {
        c.hidden = true;
        if (c.out && !keepHidden(el, tag, role)) c.out = false;
      } else if (c.out && c.boilerplateOut && landmark !== "main" && (
          el.getAttribute("aria-modal") === "true" || isConsentNotice(el, tag, role, st) ||
          ((st.position === "fixed" || st.position === "sticky") && controlsOnly(el)))) {
        c.out = false;
      }
    }
    if (FOCUSABLE.has(tag) || Number(el.getAttribute("tabindex") ?? -1) >= 0) {
      const skip = isSkipLink(el, tag);
      if (skip && c.out && c.boilerplateOut) c.out = false;
      if (!skip && (tag !== "a" || el.hasAttribute("href"))) onlySkipLinksSoFar = false;
    }
    if (ariaHidden) c.ariaHidden = true;
    if (tag === "form") c.inForm = true;
    if (!c.slideshow && isSlideshow(el)) c.slideshow = true;
    if (tag === "pre") c.pre = true;

    const headingMatch = HEADING_TAG.exec(tag);
    let level = headingMatch ? Number(headingMatch[1]) : 0;
    if (!level && role === "heading") level = Math.min(6, Math.max(1, Number(el.getAttribute("aria-level")) || 2));
    if (level) {
      const value = squash(el.innerText || el.textContent);
      if (value) {
        registerHeading(value, c.landmarkId);
        if (c.out && level <= 3 && c.collect) headings.push(value);
      }
    }

    const list = LISTS.has(tag) || role === "list" || role === "table" || role === "grid";
    const frame = { last: "", first: "", barrier, list, pending: [] };
    frames.push(frame);
    const target = c.collect ? targetOf(el, tag) : null;
    if (target && target.url) {
      const rec = {
        url: target.url, text: "", name: accessibleName(el), region: c.region,
        heading: "", visible: tag === "area" ? !ctx.hidden : isVisible(el, c),
        download: el.hasAttribute("download"), type: (el.getAttribute("type") || "").toLowerCase(),
      };
      contextHeading(rec, c.landmarkId);
      rec.text = squash(el.innerText || el.textContent);
      rec.el = el;
      links.push(rec);
    }
    if (c.collect && clicks.length < maxCandidates && !(target && (target.url || target.skip))) {
      const priority = clickPriority(el, tag, role, target, ctx, c.hidden ? null : styleOf());
      if (priority >= 0) {
        const label = squash(el.innerText || el.textContent);
        const name = accessibleName(el);
        if ((label || name) && label.length <= 200 && !DESTRUCTIVE_RE.test(label + " " + name) &&
            isVisible(el, c)) {
          const rec = { index: ordinal, priority, text: label, name, region: c.region, heading: "", el,
            tag, role, path: mode === "mark" ? "" : pathOf(el), emptyHref: !!(target && target.empty),
            // The label of the group it sits in ("Tag" beside "Category" chips).
            parentLabel: mode === "mark" ? "" : groupLabel(el),
            // A lazily mounted menu group: said by aria-expanded="false" (the
            // only such candidate), or a plain button or pointer element that
            // is all its menu item holds (vuepress-theme-hope's sidebar
            // groups, which say nothing to assistive technology).
            group: el.getAttribute("aria-expanded") === "false" ||
              (priority <= 1 && !el.hasAttribute("aria-expanded") && lazyItem(el, ctx)) };
          ordinal += 1;
          if (mode === "mark") el.setAttribute("data-pw-adaptive-click", String(rec.index));
          contextHeading(rec, c.landmarkId);
          clicks.push(rec);
        }
      }
    }
    if ((target && target.url) || tag === "a") c.inLink = true;
    if (!c.hidden && styleOf().cursor === "pointer") c.pointer = true;

    let outTag = "";
    let spaced = false;
    if (c.out && tag !== "slot") {
      if (level) outTag = "h" + level;
      else if (KEEP.has(tag)) outTag = tag;
      else outTag = BLOCK_DISPLAY.test(styleOf().display) ? "div" : "span";
      // Inline tags laid out as boxes (tab strips, button rows) need a separator.
      const display = styleOf().display;
      spaced = INLINE_OUT.has(outTag) && display !== "inline" && display !== "contents" &&
        display !== "none";
      let attrs = "";
      // Links within the page (heading permalinks, tables of contents) keep
      // their text only: the markdown is the page, they lead nowhere else.
      if (outTag === "a" && target && target.url && !inPageFragment(el, tag)) {
        attrs = ` href="${escAttr(target.url)}"`;
      }
      else if (outTag === "img") attrs = ` alt="${escAttr(squash(el.getAttribute("alt")))}"`;
      else if ((outTag === "td" || outTag === "th") && Number(el.getAttribute("colspan")) > 1) {
        attrs = ` colspan="${Number(el.getAttribute("colspan"))}"`;
      }
      if (spaced) { html.push(" "); text.push(" "); }
      html.push(`<${outTag}${attrs}>`);
      if (outTag === "br") text.push("\n");
      else if (!INLINE_OUT.has(outTag)) text.push("\n");
    }
    if (!VOID.has(tag)) walkChildren(el, c);
    if (outTag && !VOID.has(outTag)) {
      html.push(`</${outTag}>`);
      if (!INLINE_OUT.has(outTag)) text.push("\n");
    }
    if (spaced) { html.push(" "); text.push(" "); }
    frames.pop();
    if (frame.first) {
      for (const rec of frame.pending) if (!rec.resolved) { rec.heading = frame.first; rec.resolved = true; }
    }
  };

  // The teaser around a link: the text of the nearest enclosing card or list
  // item that says more than the link itself. Climbing stops at lists, menus,
  // landmarks and long blocks: there the text belongs to siblings, not to
  // this link.
  const STOP_TAGS = new Set(["ul", "ol", "menu", "nav", "header", "footer", "main", "aside",
    "body", "html", "table", "tbody", "thead", "dl", "form"]);
  const STOP_ROLES = new Set(["list", "menu", "menubar", "navigation", "banner", "contentinfo",
    "main", "tablist", "grid", "table", "complementary"]);
  const parentOf = (node) => node.assignedSlot || node.parentElement ||
    (node.getRootNode && node.getRootNode() !== document ? node.getRootNode().host : null);
  const teaserOf = (el, ownText) => {
    let node = el;
    for (let i = 0; i < 4; i++) {
      const parent = parentOf(node);
      if (!parent || parent.nodeType !== 1) return "";
      const tag = parent.localName;
      const role = (parent.getAttribute("role") || "").toLowerCase();
      if (STOP_TAGS.has(tag) || STOP_ROLES.has(role)) return "";
      const value = squash(parent.innerText || parent.textContent);
      if (value.length > TEASER_MAX) return "";
      if (value.length > ownText.length + 12) return value;
      node = parent;
    }
    return "";
  };

  const root = document.body || document.documentElement;
  if (mode === "mark") {
    // A copy marked before (then clicked: a list rebuilt, a route gone back
    // from) keeps marks on elements that may be no candidates now.
    for (const el of document.querySelectorAll("[data-pw-adaptive-click]")) {
      el.removeAttribute("data-pw-adaptive-click");
    }
  }
  const base = {
    out: mode !== "mark", collect: true, boilerplateOut: true, region: "main", sectioned: false,
    landmarkId: 0, hidden: false, ariaHidden: false, inLink: false, inForm: false, slideshow: false, pointer: false, pre: false,
  };
  walk(root, base);
  if (mode === "mark") return clicks.map((c) => c.text);

  let mainHtml = html.join("");
  let mainText = text.join("");
  if (!mainText.trim()) {
    // Everything sits in landmarks (a page made of one big <header>): keep them all.
    html.length = 0; text.length = 0; frames.length = 0;
    visited = 0; chars = 0; truncated = false;
    walk(root, Object.assign({}, base, { collect: false, boilerplateOut: false }));
    mainHtml = html.join("");
    mainText = text.join("");
  }
  const canonicalEl = document.querySelector("link[rel~='canonical'][href]");
  const h1 = headings.length ? headings[0] : "";
  return {
    url: location.href,
    title: squash(document.title) || h1,
    canonical: canonicalEl ? absUrl(canonicalEl.getAttribute("href"), canonicalEl) : null,
    html: mainHtml,
    text: mainText,
    truncated,
    headings,
    links: links.map(({ resolved, el, ...rest }) => (
      Object.assign(rest, { teaser: rest.region === "main" || rest.region === "aside" ?
        teaserOf(el, rest.text) : "" }))),
    // Click-only elements get the same teaser as links: "Open the checklist"
    // under "Your permission to study ..." says where it leads by its card.
    clicks: clicks.map(({ resolved, el, ...rest }) => (
      Object.assign(rest, { teaser: rest.region === "main" || rest.region === "aside" ?
        teaserOf(el, rest.text) : "" }))),
  };
};
