// The loading screen's styles (scripts/boot-screen.css), inlined into every HTML page at the
// marker <!-- boot-screen-style -->: the staff app's index.html and the family portal's
// ortu.html show the same screen while their code downloads, from one copy.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKER = '<!-- boot-screen-style -->';
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'boot-screen.css');

export function bootScreen() {
  return {
    name: 'tatib-boot-screen',
    transformIndexHtml(html) {
      if (!html.includes(MARKER)) throw new Error(`boot-screen: an HTML page lacks ${MARKER}`);
      const css = readFileSync(file, 'utf8').replace(/^\/\*[\s\S]*?\*\/\n/, '');
      return html.replace(MARKER, `<style>\n${css}</style>`);
    },
  };
}
