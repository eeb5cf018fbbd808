import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { config as configureZod } from 'zod';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { appRoutes } from './app/router';
import { registerServiceWorker, reportServiceWorkerError } from './app/serviceWorker';
import { removeSpotifyConnectedFlag } from './app/spotifyConnectedFlag';
import { createQueryClient } from './lib/queryClient';
import './styles/global.css';

// zod would probe `new Function` to compile its parsers, which the CSP (no unsafe-eval) refuses.
configureZod({ jitless: true });
removeSpotifyConnectedFlag();
// The server fills each page's head for crawlers and link previews; from here PageMeta does.
for (const tag of document.head.querySelectorAll('[data-server-meta]')) tag.remove();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createBrowserRouter(appRoutes)} />
    </AppProviders>
  </StrictMode>,
);

if (import.meta.env.PROD) registerServiceWorker().catch(reportServiceWorkerError);
