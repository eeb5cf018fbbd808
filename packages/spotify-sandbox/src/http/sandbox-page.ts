import type { FastifyReply } from 'fastify';
import { avatarPath } from '../images/avatar';
import type { SandboxAccount } from '../world/account';
import { html, renderHtml, type Markup } from './html';

/*
 * The sandbox's own HTML pages (the accounts service's and "Download your data"): their layout,
 * the account fragments they share, and how they are sent. Every link is relative, which keeps
 * the pages working behind any prefix or proxy. No scripts and no inline styles: they work under
 * `default-src 'self'`.
 */

/** From the page's folder to the sandbox root: `''` for a page at the root, `'../'` one below. */
export type PathToRoot = '' | '../';

/*
 * `form-action` is left out on purpose: browsers apply it to the redirect that follows a form
 * submission, and the app's redirect URI is usually on another origin.
 */
const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'";

export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .send(page);
}

export interface SandboxPageContent {
  title: string;
  body: Markup;
  toRoot: PathToRoot;
  /** Said in the footnote after "No real account or data is involved." */
  footnote?: Markup;
}

export function sandboxPage({
  title,
  body,
  toRoot,
  footnote = html``,
}: SandboxPageContent): string {
  return `<!doctype html>\n${renderHtml(
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · Spotify Sandbox</title>
        <link rel="stylesheet" href="${toRoot}assets/sandbox.css" />
      </head>
      <body>
        <main class="card">
          <p class="brand"><span class="brand-mark" aria-hidden="true"></span>Spotify Sandbox</p>
          ${body}
        </main>
        <p class="footnote">
          An offline stand-in for Spotify. No real account or data is involved. ${footnote}
        </p>
      </body>
    </html> `,
  )}`;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function planName(account: SandboxAccount): string {
  return account.product === 'premium' ? 'Premium' : 'Free';
}

/** The accounts to choose from, each a submit button named `account` of the enclosing form. */
export function accountChoices(accounts: readonly SandboxAccount[], toRoot: PathToRoot): Markup {
  const choices = accounts.map(
    (account) =>
      html`<li>
        <button type="submit" name="account" value="${account.id}" class="account">
          <img src="${toRoot}${avatarPath(account.id, 64)}" alt="" width="48" height="48" />
          <span class="account-text">
            <span class="account-name">${account.displayName}</span>
            <span class="account-meta"
              >${account.email} · ${regionNames.of(account.country) ?? account.country}</span
            >
          </span>
          <span class="plan plan-${account.product}">${planName(account)}</span>
        </button>
      </li>`,
  );
  return html`<ul class="accounts">
    ${choices}
  </ul>`;
}

/** Who the page is for, with a "Not you?" link back to the choice of account. */
export function signedInAs(
  account: SandboxAccount,
  toRoot: PathToRoot,
  chooseAgainHref: string,
): Markup {
  return html`<div class="signed-in">
    <img src="${toRoot}${avatarPath(account.id, 64)}" alt="" width="40" height="40" />
    <span>Logged in as <strong>${account.displayName}</strong> (${planName(account)})</span>
    <a href="${chooseAgainHref}">Not you?</a>
  </div>`;
}
