// TypeDoc's Markdown plugin numbers anchors ("#btnodestatus-1") by its own
// count of names, which does not always match the ids VitePress gives the
// headings; the site test (test/docs/site.browser.test.ts) found such links
// pointing nowhere. This pass rewrites, in each generated API page, every
// in-page link whose anchor the page does not have to the anchor it does
// have once the "-N" suffix is dropped. Run after TypeDoc (npm run api).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = join(import.meta.dirname, "..", "api");

/** VitePress's heading slug (@mdit-vue/shared's slugify). */
function slugify(text) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .replace(/\p{Cc}/gu, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase();
}

/** The ids a page will have: its headings' slugs (repeats get -1, -2, ...) and explicit <a id>s. */
function anchorsOf(markdown) {
  const ids = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*$/.exec(line);
    if (heading) {
      const text = heading[1]
        .replace(/<[^>]+>/g, "")
        .replace(/\\(.)/g, "$1")
        .replace(/[`*]/g, "")
        .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
      const base = slugify(text);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      ids.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a id="([^"]+)"/g)) ids.add(match[1]);
  }
  return ids;
}

let fixed = 0;
for (const name of readdirSync(dir).filter((file) => file.endsWith(".md"))) {
  const path = join(dir, name);
  const text = readFileSync(path, "utf8");
  const ids = anchorsOf(text);
  const out = text.replace(/\]\(#([^)\s]+)\)/g, (link, anchor) => {
    if (ids.has(anchor)) return link;
    const base = anchor.replace(/-\d+$/, "");
    if (base !== anchor && ids.has(base)) {
      fixed++;
      return `](#${base})`;
    }
    return link;
  });
  if (out !== text) writeFileSync(path, out);
}
console.log(`fix-api-anchors: ${fixed} in-page links pointed at an anchor the page lacks; pointed them at the heading itself`);
