// Share links: the file, compressed (deflate, raw), in base64url, in the
// URL's fragment, which never reaches a server. `#f=NAME&z=DATA`: NAME is
// the file's name, so that diagnostics read as they did for the sender.

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
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
// throws for one that is damaged.
export async function decodeShare(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const z = params.get('z');
  if (!z) return null;
  const bytes = await pipe(fromBase64url(z), new DecompressionStream('deflate-raw'));
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  let name = params.get('f') || 'shared.napkin';
  // Only a plain file name: it becomes a path in napkin's in-memory file system.
  if (!/^[A-Za-z0-9_.-]+\.napkin$/.test(name) || name.startsWith('.')) name = 'shared.napkin';
  return { name, text };
}
