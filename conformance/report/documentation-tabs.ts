// The tabs of documentation.html (issue 37): English first and checked, then one tab per edition. The tabs are
// radio buttons styled by CSS, so the page opens in English even with scripts off; one inline script opens the
// edition in the reader's language when the browser names it (navigator.languages), or the one a link names (#sv).
import { escapeHtml } from "./html-text.js";

export interface Tab {
  /** The panel's id, also its anchor. */
  id: string;
  label: string;
  /** BCP 47 tag of the panel's text: the reader's languages are matched against its primary subtag. */
  language: string;
  /** The panel: a `<section>` whose id is the tab's id. */
  html: string;
}

/** The English tab's id: not an edition id, so that an edition may be called `en`. */
export const ENGLISH_TAB_ID = "english";

export function tabsCss(tabs: readonly Tab[]): string {
  const shown = tabs.map(({ id }) => `#tab-${id}:checked ~ #${id}`).join(", ");
  const current = tabs.map(({ id }) => `#tab-${id}:checked ~ .tablist label[for="tab-${id}"]`).join(", ");
  return `
.tabs > input { position: absolute; opacity: 0; pointer-events: none; }
.tablist { display: flex; flex-wrap: wrap; gap: .25rem; margin-top: 1.25rem; border-bottom: 2px solid #d0d7de; }
.tablist label { padding: .3rem .8rem; border: 1px solid #d0d7de; border-bottom: 0; border-radius: 6px 6px 0 0; background: #f6f8fa; cursor: pointer; }
.tabs > section { display: none; }
${shown} { display: block; }
${current} { background: #fff; border-color: #1f2328; font-weight: 700; }`;
}

export function tabsHtml(tabs: readonly Tab[]): string {
  const inputs = tabs.map(({ id }, index) => `<input type="radio" name="tab" id="tab-${id}"${index === 0 ? " checked" : ""}>`);
  const labels = tabs.map(({ id, label, language }) => `<label for="tab-${id}" lang="${escapeHtml(language)}">${escapeHtml(label)}</label>`);
  return `<div class="tabs">${inputs.join("")}<div class="tablist" role="tablist">${labels.join("")}</div>\n${tabs.map(({ html }) => html).join("\n")}\n</div>`;
}

/**
 * Opens the tab a link names, else the first edition in one of the reader's languages (English, or a language no
 * edition has, keeps the English tab); a link to anything else opens the tab and the <details> around its target.
 */
export function tabsScript(tabs: readonly Tab[]): string {
  const languages = Object.fromEntries(tabs.map(({ id, language }) => [id, primarySubtag(language)]));
  return `<script>
(() => {
  const languages = ${JSON.stringify(languages).replace(/</g, "\\u003c")};
  const choose = (id) => { const tab = document.getElementById("tab-" + id); if (tab) tab.checked = true; return Boolean(tab); };
  const follow = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id || choose(id)) return Boolean(id);
    for (let node = document.getElementById(id); node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
      if (node.getAttribute("role") === "tabpanel") choose(node.id);
    }
    return true;
  };
  if (!follow()) {
    for (const tag of navigator.languages || [navigator.language]) {
      const primary = String(tag).toLowerCase().split("-")[0];
      const id = Object.keys(languages).find((candidate) => languages[candidate] === (primary === "fil" ? "tl" : primary));
      if (id) { choose(id); break; }
    }
  }
  addEventListener("hashchange", follow);
})();
</script>`;
}

const primarySubtag = (language: string): string => language.toLowerCase().split("-")[0] ?? "";
