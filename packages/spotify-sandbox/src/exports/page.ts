import { html, renderHtml, type Markup } from '../http/html';
import { avatarPath } from '../images/avatar';
import type { Account } from '../world/model';
import { isoDate } from './json';

/*
 * "Privacy → Download your data", the sandbox's stand-in for the page on spotify.com where people
 * request their exports. Served from `<root>/privacy`, so links are relative to the root. No
 * scripts and no inline styles: the stylesheet is the accounts pages' one.
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
        <link rel="stylesheet" href="assets/sandbox.css" />
      </head>
      <body>
        <main class="card">
          <p class="brand"><span class="brand-mark" aria-hidden="true"></span>Spotify Sandbox</p>
          ${body}
        </main>
        <p class="footnote">
          An offline stand-in for Spotify. No real account or data is involved. These pages need no
          password: anyone who can reach the sandbox can download any sandbox account's data.
        </p>
      </body>
    </html> `,
  )}`;
}

function plan(account: Account): string {
  return account.product === 'premium' ? 'Premium' : 'Free';
}

/** The first step: choose the account to download for, as on the authorization page. */
export function chooseAccountPage(accounts: readonly Account[], notice?: string): string {
  const choices = accounts.map(
    (account) =>
      html`<li>
        <button type="submit" name="account" value="${account.id}" class="account">
          <img src="${avatarPath(account.id, 64)}" alt="" width="48" height="48" />
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
    'Download your data',
    html`<h1>Download your data</h1>
      <p class="lead">Log in to continue: choose the sandbox account whose data you want.</p>
      ${notice ? html`<p class="notice" role="alert">${notice}</p>` : html``}
      <form method="get" action="privacy">
        <ul class="accounts">
          ${choices}
        </ul>
      </form>`,
  );
}

/** Download buttons: a GET form, so the older format is just `?variant=legacy`. */
function downloads(action: string, older: string): Markup {
  return html`<form method="get" action="${action}" class="actions">
    <button type="submit" name="variant" value="legacy" class="button secondary">${older}</button>
    <button type="submit" class="button primary">Download</button>
  </form>`;
}

/** The second step: the account's exports, ready at once (Spotify takes days to weeks). */
export function downloadPage(account: Account): string {
  const base = `exports/${encodeURIComponent(account.id)}`;
  return page(
    'Download your data',
    html`<h1>Download your data</h1>
      <div class="signed-in">
        <img src="${avatarPath(account.id, 64)}" alt="" width="40" height="40" />
        <span>Logged in as <strong>${account.displayName}</strong> (${plan(account)})</span>
        <a href="privacy">Not you?</a>
      </div>
      <p class="lead">
        Spotify prepares these files in days to weeks; the sandbox builds them on the spot from its
        world, as they are now. Each download is a ZIP named my_spotify_data.zip.
      </p>
      <h2>Extended streaming history</h2>
      <p class="lead">
        Every play since the account was created (${isoDate(account.createdAt)}): tracks, podcast
        episodes, audiobook chapters and videos, with device, country and how each play started and
        ended. The older format is the one Spotify sent until 2023 (MyData/endsong_N.json).
      </p>
      ${downloads(`${base}/extended-streaming-history.zip`, 'Older format')}
      <h2>Account data</h2>
      <p class="lead">
        The last year of streaming (names and times only), the library, playlists and profile. The
        older format has music and podcasts in the same StreamingHistoryN.json files.
      </p>
      ${downloads(`${base}/account-data.zip`, 'Older format')}
      <p class="lead">
        For benchmarks, the extended history link takes scale (multiplies daily listening) and years
        (length of history): ?scale=40&amp;years=12 gives about a million plays.
      </p>`,
  );
}

export function exportErrorPage(message: string): string {
  return page(
    'Error',
    html`<h1>Something went wrong</h1>
      <p class="error">${message}</p>
      <p><a href="privacy">Back to Download your data</a></p>`,
  );
}
