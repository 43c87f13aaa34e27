// Share links: the file, compressed (deflate, raw), in base64url, in the
// URL's fragment, which never reaches a server. `#f=NAME&z=DATA`: NAME is
// the file's name, so that diagnostics read as they did for the sender.

// napkin reads files up to 16 MiB (kMaxSourceBytes, grammar/parser.hpp):
// a link that holds more is refused before it is all inflated.
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
// Input goes to the decompressor this much at a time: raw deflate inflates
// at most about 1032 to 1, so one piece makes at most about 4 MiB, and the
// reader stops soon after the limit. A whole link in one piece could make
// all of a 200 MiB file at once before the first byte were read.
const PIECE = 4096;

// The file a link holds is bigger than napkin reads.
export class ShareTooLarge extends Error {
  constructor(limit) {
    super(`the file it holds is larger than ${limit / (1024 * 1024)} MiB, the most napkin reads`);
    this.name = 'ShareTooLarge';
  }
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function pieces(bytes) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.subarray(at, (at += PIECE)));
    },
  }, { highWaterMark: 0 });
}

// The inflated bytes, or ShareTooLarge as soon as they pass `limit`.
export async function inflate(bytes, limit = MAX_FILE_BYTES) {
  const reader = pieces(bytes).pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ShareTooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

export async function encodeShare(name, text) {
  const z = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return `#f=${encodeURIComponent(name)}&z=${toBase64url(z)}`;
}

// Returns { name, text }, null for a fragment that is no share link, or
// throws for one that is damaged or holds more than napkin reads.
export async function decodeShare(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const z = params.get('z');
  if (!z) return null;
  const bytes = await inflate(fromBase64url(z));
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  let name = params.get('f') || 'shared.napkin';
  // Only a plain file name: it becomes a path in napkin's in-memory file system.
  if (!/^[A-Za-z0-9_.-]+\.napkin$/.test(name) || name.startsWith('.')) name = 'shared.napkin';
  return { name, text };
}
