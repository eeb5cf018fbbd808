import { html, type Markup } from '../http/html';
import { accountChoices, sandboxPage, signedInAs } from '../http/sandbox-page';
import type { Account } from '../world/model';
import { isoDate } from './json';

/*
 * "Privacy → Download your data", the sandbox's stand-in for the page on spotify.com where people
 * request their exports. Served from `<root>/privacy`, so links are relative to the root.
 */

const TO_ROOT = '';

function page(title: string, body: Markup): string {
  return sandboxPage({
    title,
    body,
    toRoot: TO_ROOT,
    footnote: html`These pages need no password: anyone who can reach the sandbox can download any
    sandbox account's data.`,
  });
}

/** The first step: choose the account to download for, as on the authorization page. */
export function chooseAccountPage(accounts: readonly Account[], notice?: string): string {
  return page(
    'Download your data',
    html`<h1>Download your data</h1>
      <p class="lead">Log in to continue: choose the sandbox account whose data you want.</p>
      ${notice ? html`<p class="notice" role="alert">${notice}</p>` : html``}
      <form method="get" action="privacy">${accountChoices(accounts, TO_ROOT)}</form>`,
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
      ${signedInAs(account, TO_ROOT, 'privacy')}
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
