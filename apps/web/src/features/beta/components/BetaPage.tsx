import { useState, type FormEvent } from 'react';
import { PageMeta } from '../../../components/ui/PageMeta';
import { emailAddress } from '@earshot/contract/admin';
import { PRODUCT_NAME } from '@earshot/contract/site';
import { betaFailureMessage, useBetaRequestMutation } from '../api/requestBeta';
import './beta.css';

export const INVITE_REQUIRED_MESSAGE =
  `${PRODUCT_NAME} is invite-only for now, and your Spotify account is not on the list yet. ` +
  'Ask for access below: you can connect as soon as an admin accepts your address.';

/**
 * `/spotify/beta` (logged out only): asks for beta access with an e-mail address. Invite-only
 * logins that were refused land here with `inviteRequired`.
 */
export function BetaPage({ inviteRequired }: { inviteRequired: boolean }) {
  const [email, setEmail] = useState('');
  // The address as the server would check it, said here in plain words (the browser's own
  // check lets "a@b" through; the server's answer would name the field of its body).
  const [invalid, setInvalid] = useState<string>();
  const request = useBetaRequestMutation();
  const errorText = invalid ?? (request.isError ? betaFailureMessage(request.error) : undefined);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = emailAddress.safeParse(email);
    setInvalid(checked.success ? undefined : checked.error.issues[0]?.message);
    if (checked.success) request.mutate(email.trim());
    else request.reset();
  }

  return (
    <section className="beta-page">
      <PageMeta title="Request beta access" />
      <div className="card beta-page__card">
        <h1 className="beta-page__title">Join the {PRODUCT_NAME} beta</h1>
        {inviteRequired && (
          <p className="beta-page__notice" role="alert">
            {INVITE_REQUIRED_MESSAGE}
          </p>
        )}
        <p className="beta-page__text">
          Leave the e-mail address of your Spotify account and we will let you in.
        </p>
        {request.isSuccess ? (
          <p className="beta-page__done" role="status">
            {request.data.detail}
          </p>
        ) : (
          <form className="beta-page__form" onSubmit={submit}>
            <label className="field-label" htmlFor="beta-email">
              E-mail address
            </label>
            <div className="beta-page__row">
              <input
                id="beta-email"
                className="text-input beta-page__input"
                type="email"
                required
                autoComplete="email"
                value={email}
                aria-invalid={errorText !== undefined || undefined}
                aria-describedby={errorText === undefined ? undefined : 'beta-error'}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setInvalid(undefined);
                }}
              />
              <button
                type="submit"
                className="button button--primary"
                disabled={email.trim() === '' || request.isPending}
              >
                {request.isPending ? 'Sending…' : 'Request access'}
              </button>
            </div>
            {errorText !== undefined && (
              <p id="beta-error" className="beta-page__error" role="alert">
                {errorText}
              </p>
            )}
          </form>
        )}
      </div>
    </section>
  );
}
