import { Navigate, useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { safeReturnPath } from '../../../lib/returnPath';
import { PRODUCT_NAME } from '@earshot/contract/site';
import { useSession } from '../hooks/useSession';
import { ConnectSpotifyButton } from './ConnectSpotifyButton';
import './account.css';

/** `/login?next=…`: logs in through Spotify, or goes straight to `next` when already logged in. */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  const next = safeReturnPath(searchParams.get('next'));
  const session = useSession();

  if (session.status === 'authenticated') return <Navigate to={next} replace />;

  return (
    <section className="login-page">
      <PageMeta title="Log in" noindex />
      <div className="card login-page__card">
        <h1 className="login-page__title">Log in to {PRODUCT_NAME}</h1>
        <p className="login-page__text">
          {PRODUCT_NAME} uses your Spotify account. Connect it to see your plays, your likes and
          what your friends are listening to.
        </p>
        {session.status === 'loading' ? <LoadingState /> : <ConnectSpotifyButton next={next} />}
      </div>
    </section>
  );
}
