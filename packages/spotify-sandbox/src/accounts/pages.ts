import { avatarPath } from '../images/avatar';
import { html, renderHtml, type Markup } from '../http/html';
import type { SandboxAccount } from '../world/account';
import { SCOPES } from './scopes';

/*
 * The accounts service's pages. They are served from `<root>/accounts/authorize`, so every link is
 * relative to that folder, which keeps them working behind any prefix or proxy. No scripts and no
 * inline styles: they work under `default-src 'self'`.
 */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function page(title: string, body: Markup): string {
  return `<!doctype html>\n${renderHtml(
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · Spotify Sandbox</title>
        <link rel="stylesheet" href="../assets/sandbox.css" />
      </head>
      <body>
        <main class="card">
          <p class="brand"><span class="brand-mark" aria-hidden="true"></span>Spotify Sandbox</p>
          ${body}
        </main>
        <p class="footnote">
          An offline stand-in for Spotify. No real account or data is involved.
        </p>
      </body>
    </html> `,
  )}`;
}

function hiddenFields(params: URLSearchParams): Markup[] {
  return [...params].map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
}

function plan(account: SandboxAccount): string {
  return account.product === 'premium' ? 'Premium' : 'Free';
}

export function accountPickerPage(input: {
  clientId: string;
  params: URLSearchParams;
  accounts: readonly SandboxAccount[];
  notice?: string;
}): string {
  const choices = input.accounts.map(
    (account) =>
      html`<li>
        <button type="submit" name="account" value="${account.id}" class="account">
          <img src="../${avatarPath(account.id, 64)}" alt="" width="48" height="48" />
          <span class="account-text">
            <span class="account-name">${account.displayName}</span>
            <span class="account-meta"
              >${account.email} · ${regionNames.of(account.country) ?? account.country}</span
            >
          </span>
          <span class="plan plan-${account.product}">${plan(account)}</span>
        </button>
      </li>`,
  );
  return page(
    'Log in',
    html`<h1>Log in to continue</h1>
      <p class="lead">Choose a demo account to use with <strong>${input.clientId}</strong>.</p>
      ${input.notice ? html`<p class="notice" role="alert">${input.notice}</p>` : html``}
      <form method="post" action="authorize">
        ${hiddenFields(input.params)}
        <ul class="accounts">
          ${choices}
        </ul>
      </form>`,
  );
}

export function consentPage(input: {
  clientId: string;
  params: URLSearchParams;
  account: SandboxAccount;
  scopes: readonly string[];
}): string {
  const permissions = [
    html`<li>See your name, username and profile picture</li>`,
    ...input.scopes.map((scope) => html`<li>${SCOPES.get(scope) ?? scope}</li>`),
  ];
  return page(
    'Allow access',
    html`<h1>Allow <strong>${input.clientId}</strong> to use your account?</h1>
      <div class="signed-in">
        <img src="../${avatarPath(input.account.id, 64)}" alt="" width="40" height="40" />
        <span
          >Logged in as <strong>${input.account.displayName}</strong> (${plan(input.account)})</span
        >
        <a href="authorize?${input.params.toString()}">Not you?</a>
      </div>
      <h2>It will be able to</h2>
      <ul class="scopes">
        ${permissions}
      </ul>
      <form method="post" action="authorize" class="actions">
        ${hiddenFields(input.params)}
        <input type="hidden" name="account" value="${input.account.id}" />
        <button type="submit" name="consent" value="deny" class="button secondary">Cancel</button>
        <button type="submit" name="consent" value="allow" class="button primary">Allow</button>
      </form>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Error',
    html`<h1>Something went wrong</h1>
      <p class="error">${message}</p>`,
  );
}
