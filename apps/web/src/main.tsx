import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { appRoutes } from './app/router';
import { registerServiceWorker, reportServiceWorkerError } from './app/serviceWorker';
import { removeSpotifyConnectedFlag } from './app/spotifyConnectedFlag';
import { createQueryClient } from './lib/queryClient';
import './styles/global.css';

removeSpotifyConnectedFlag();

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
