/**
 * A Micropub request's body, read into one shape whatever its encoding (Micropub §3.3):
 * `application/x-www-form-urlencoded` (`h=entry`, `category[]=…`, `action=delete&url=…`),
 * `multipart/form-data` (the same fields, plus files), or `application/json` (a
 * microformats2 object, or `{action, url, replace, add, delete}`). It also takes out the
 * `access_token` a form may carry (§2.1: the token may travel in the body), so the handler
 * can refuse a token sent twice; the token never becomes a property, so it is never
 * stored (micropub.rocks 802). Commands (`mp-*`) stay apart from the properties.
 */
import { isMf2Object, shapeProblem, type Mf2Object } from './mf2.ts';

/** A photo (or other file) sent in a multipart create. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

export type MicropubAction =
  | { action: 'create'; entry: Mf2Object; commands: Record<string, unknown[]>; files: Record<string, UploadedFile[]> }
  | { action: 'update'; url: string | undefined; replace?: unknown; add?: unknown; delete?: unknown }
  | { action: 'delete' | 'undelete'; url: string | undefined };

export type ParsedBody = { ok: true; request: MicropubAction; bodyToken: string | undefined } | { ok: false; status: 400 | 415; description: string };

export type BodyKind = 'form' | 'multipart' | 'json';

export function bodyKind(contentType: string | null): BodyKind | undefined {
  const type = contentType?.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'multipart/form-data') return 'multipart';
  if (type === 'application/json') return 'json';
  return undefined;
}

const refuse = (description: string): ParsedBody => ({ ok: false, status: 400, description });

/** Form fields (strings, or files from multipart) into an action, the token apart. */
function fromFields(fields: [string, string | UploadedFile][]): ParsedBody {
  let bodyToken: string | undefined;
  const properties: Record<string, unknown[]> = {};
  const commands: Record<string, unknown[]> = {};
  const files: Record<string, UploadedFile[]> = {};
  let h: string | undefined;
  let action: string | undefined;
  for (const [key, value] of fields) {
    const name = key.replace(/\[\]$/, '');
    if (name === 'access_token') {
      if (typeof value !== 'string' || bodyToken !== undefined) return refuse('access_token is sent once, as text.');
      bodyToken = value;
    } else if (name === 'h' && typeof value === 'string') h = value;
    else if (name === 'action' && typeof value === 'string') action = value;
    else if (typeof value !== 'string') (files[name] ??= []).push(value);
    else if (name.startsWith('mp-')) (commands[name] ??= []).push(value);
    else (properties[name] ??= []).push(value);
  }
  if (action !== undefined) {
    if (action !== 'delete' && action !== 'undelete')
      return refuse(action === 'update' ? 'An update is sent as JSON (Micropub §3.4.2).' : 'action must be delete, undelete or update.');
    return { ok: true, request: { action, url: properties.url?.[0] as string | undefined }, bodyToken };
  }
  const entry: Mf2Object = { type: [`h-${h ?? 'entry'}`], properties };
  const problem = shapeProblem(entry);
  if (problem) return refuse(`The post is refused: ${problem}.`);
  if (!/^h-[a-z]+(-[a-z]+)*$/.test(entry.type[0]!)) return refuse('h must name a microformats type such as entry or event.');
  return { ok: true, request: { action: 'create', entry, commands, files }, bodyToken };
}

function fromJson(text: string): ParsedBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse('The body is not JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse('The body is not one JSON object.');
  const object = body as Record<string, unknown>;
  const token = typeof object.access_token === 'string' ? object.access_token : undefined;
  if (object.action !== undefined) {
    const url = typeof object.url === 'string' ? object.url : undefined;
    if (object.action === 'update')
      return { ok: true, request: { action: 'update', url, replace: object.replace, add: object.add, delete: object.delete }, bodyToken: token };
    if (object.action === 'delete' || object.action === 'undelete') return { ok: true, request: { action: object.action, url }, bodyToken: token };
    return refuse('action must be update, delete or undelete.');
  }
  if (!isMf2Object(body)) return refuse('A JSON post is a microformats2 object: {"type": ["h-entry"], "properties": {…}}.');
  const problem = shapeProblem(body);
  if (problem) return refuse(`The post is refused: ${problem}.`);
  const properties: Record<string, unknown[]> = {};
  const commands: Record<string, unknown[]> = {};
  for (const [name, values] of Object.entries(body.properties)) (name.startsWith('mp-') ? commands : properties)[name] = values;
  return { ok: true, request: { action: 'create', entry: { type: body.type.map(String), properties }, commands, files: {} }, bodyToken: token };
}

/** The body as one action. `body` is already within its bound. */
export async function parseBody(kind: BodyKind, contentType: string, body: Uint8Array): Promise<ParsedBody> {
  const text = () => Buffer.from(body).toString('utf8');
  if (kind === 'json') return fromJson(text());
  if (kind === 'form') return fromFields([...new URLSearchParams(text())]);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return refuse('The multipart body could not be read.');
  }
  const fields: [string, string | UploadedFile][] = [];
  for (const [key, value] of form) {
    fields.push([key, typeof value === 'string' ? value : { name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) }]);
  }
  return fromFields(fields);
}

/**
 * The photos of a post, each with its alt text (issue 40: a photo without one is refused,
 * never given invented text): `{"value": url, "alt": text}` in JSON, or a file or URL
 * with `mp-photo-alt[]` at the same position (Quill's and Micro.blog's form convention).
 * Undefined when every photo has alt; else the refusal.
 */
export function photoWithoutAlt(entry: Mf2Object, commands: Record<string, unknown[]>, files: Record<string, UploadedFile[]>): string | undefined {
  const alts = (commands['mp-photo-alt'] ?? []).map((a) => (typeof a === 'string' ? a.trim() : ''));
  const photos = [...(entry.properties.photo ?? []), ...(files.photo ?? [])];
  for (const [i, photo] of photos.entries()) {
    const alt = typeof photo === 'object' && photo !== null && 'alt' in photo ? (photo as { alt: unknown }).alt : alts[i];
    if (typeof alt !== 'string' || alt.trim() === '')
      return `Photo ${i + 1} has no alt text: send it as {"value": url, "alt": "what it shows"} (JSON), or with mp-photo-alt[] (a form). A photo is never published without one.`;
  }
  return undefined;
}
