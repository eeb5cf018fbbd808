import { BackendStatus } from '../../features/backend-status/components/BackendStatus';
import { PRODUCT_NAME } from '@earshot/contract/site';

export function Footer() {
  return (
    <footer className="app-footer">
      <div className="app-footer__inner">
        <p className="app-footer__brand">{PRODUCT_NAME} · Built on your Spotify account</p>
        <BackendStatus />
      </div>
    </footer>
  );
}
