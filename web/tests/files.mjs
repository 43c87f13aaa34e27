// Where the page's sources are, and an example's text as the page's menu
// holds it: what every test reads, with nothing to install (the page's
// logic is tested under Node.js alone, web/tests/page_logic.test.mjs).
import { readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const example = (name) => readFileSync(join(webDir, '../examples', name), 'utf8');
