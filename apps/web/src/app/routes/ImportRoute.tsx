import { ImportPage } from '../../features/import/components/ImportPage';
import { SignedInOnly } from './SignedInOnly';

/** `/spotify/import`, for logged-in users: visitors log in first and come back. */
export function ImportRoute() {
  return (
    <SignedInOnly failure="Failed to load the import page.">{() => <ImportPage />}</SignedInOnly>
  );
}
