/**
 * The owner lane's HTML pages — an authorization error, "not set up", the consent form,
 * the connected-clients list — as small server-side templates. Every interpolated value
 * passes through `escape`; there are no scripts and no inline styles, so the site's
 * self-only Content-Security-Policy with `frame-ancestors 'none'` (src/http/security.ts)
 * holds, and the consent form cannot be framed (clickjacking). Forms post to this site
 * only (`form-action 'self'`).
 */
import type { Answer } from '../http/answer.ts';
import { pagePolicy } from '../http/security.ts';
import { pageMarkdown, withMarkdownTwin } from '../http/twin.ts';
import { NO_STORE } from './http.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A complete page: `body` is already-escaped HTML. */
export function htmlPage(status: number, title: string, body: string, headers: Record<string, string> = {}): Answer {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title></head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`;
  const bytes = Buffer.from(html);
  const page = {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(bytes.length), ...NO_STORE, ...headers },
    body: bytes,
  };
  return withMarkdownTwin(page, pageMarkdown(title, body));
}

/** An error shown to the person in the browser (never a redirect: the client or its redirect URI is not trusted). */
export function errorPage(status: number, title: string, message: string, headers: Record<string, string> = {}): Answer {
  return htmlPage(status, title, `<p>${escape(message)}</p>`, headers);
}

/** 404: without an identity provider there is no authorization server to speak of, only its metadata (not a 5xx: nothing failed, and retrying will not help). */
export function notSetUpPage(): Answer {
  return errorPage(
    404,
    'The owner lane is not set up',
    'This site has no identity provider configured for its owner (OWNER_OIDC_ISSUER, OWNER_OIDC_CLIENT_ID, OWNER_SUBJECT), so no application can be authorized here. The public APIs need no authorization.',
  );
}

/**
 * The CSP source of where the consent form's answer redirects: browsers check
 * `form-action` against every redirect after a submission, so `'self'` alone would stop
 * the browser before it reaches the client. An origin (`https://app.example`), or for a
 * private-use scheme or a host CSP cannot spell (an IPv6 literal) the scheme alone.
 */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(url.origin) ? url.origin : url.protocol;
}

export interface ConsentView {
  clientName: string;
  clientId: string;
  redirectUri: string;
  redirectHost: string;
  /** What to look at twice before approving (src/oauth/authorize.ts `consentWarnings`). */
  warnings: string[];
  scopes: { name: string; words: string }[];
  csrf: string;
  action: string;
}

export function consentPage(view: ConsentView): Answer {
  const scopes = view.scopes.map((s) => `<li><strong>${escape(s.words)}</strong> <code>${escape(s.name)}</code></li>`).join('\n');
  return htmlPage(
    200,
    'Authorize an application',
    `<p><strong>${escape(view.clientName)}</strong> (client <code>${escape(view.clientId)}</code>) asks to act on your collections.</p>
<p>After you answer, you are sent back to <strong>${escape(view.redirectHost)}</strong>.</p>
${view.warnings.map((w) => `<p class="warning">Warning: ${escape(w)}</p>\n`).join('')}<p>It may:</p>
<ul>
${scopes}
</ul>
<form method="post" action="${escape(view.action)}">
<input type="hidden" name="csrf" value="${escape(view.csrf)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    { 'Content-Security-Policy': pagePolicy([formActionSource(view.redirectUri)]) },
  );
}
