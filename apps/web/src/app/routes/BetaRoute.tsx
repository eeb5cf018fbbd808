import { Navigate, useSearchParams } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { BetaPage } from '../../features/beta/components/BetaPage';

/** `/spotify/beta`, for visitors only: logged-in users go home. */
export function BetaRoute() {
  const session = useSession();
  const [searchParams] = useSearchParams();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <Navigate to="/" replace />;
    case 'visitor':
    case 'unreachable':
      return <BetaPage inviteRequired={searchParams.get('invite') === 'required'} />;
  }
}
