import type { CurrentUser } from '@earshot/contract/user';
import type { ReactNode } from 'react';
import { LoadingState } from '../../components/ui/LoadingState';
import { LogInFirst } from '../../features/account/components/LogInFirst';
import { useSession } from '../../features/account/hooks/useSession';

interface SignedInOnlyProps {
  /** The page, for the logged-in user. */
  children: (user: CurrentUser) => ReactNode;
  /** What a visitor sees instead: by default, log in first and come back. */
  visitor?: ReactNode;
  /** The alert shown when the session cannot be read. */
  failure: ReactNode;
}

/** A page for logged-in users: the session loads first, and a visitor is asked to log in. */
export function SignedInOnly({ children, visitor = <LogInFirst />, failure }: SignedInOnlyProps) {
  const session = useSession();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return children(session.user);
    case 'visitor':
      return visitor;
    case 'unreachable':
      return (
        <p className="route-message" role="alert">
          {failure}
        </p>
      );
  }
}
