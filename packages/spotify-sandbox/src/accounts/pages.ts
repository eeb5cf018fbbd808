import { html, type Markup } from '../http/html';
import { accountChoices, sandboxPage, signedInAs } from '../http/sandbox-page';
import type { SandboxAccount } from '../world/account';
import { SCOPES } from './scopes';

/* The accounts service's pages, served from `<root>/accounts/authorize`. */

const TO_ROOT = '../';

function page(title: string, body: Markup): string {
  return sandboxPage({ title, body, toRoot: TO_ROOT });
}

function hiddenFields(params: URLSearchParams): Markup[] {
  return [...params].map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
}

export function accountPickerPage(input: {
  clientId: string;
  params: URLSearchParams;
  accounts: readonly SandboxAccount[];
  notice?: string;
}): string {
  return page(
    'Log in',
    html`<h1>Log in to continue</h1>
      <p class="lead">Choose a demo account to use with <strong>${input.clientId}</strong>.</p>
      ${input.notice ? html`<p class="notice" role="alert">${input.notice}</p>` : html``}
      <form method="post" action="authorize">
        ${hiddenFields(input.params)} ${accountChoices(input.accounts, TO_ROOT)}
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
      ${signedInAs(input.account, TO_ROOT, `authorize?${input.params.toString()}`)}
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
