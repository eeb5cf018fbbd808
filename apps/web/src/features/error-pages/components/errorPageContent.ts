/** The `/error` page's texts per `type` query parameter (docs/product.md §8). */
export interface ErrorPageContent {
  title: string;
  message: string;
  help: string[];
}

export type ErrorPageType = 'spotify' | 'api' | 'network' | 'default';

export const ERROR_PAGE_CONTENT: Record<ErrorPageType, ErrorPageContent> = {
  spotify: {
    title: 'Spotify Connection Failed',
    message: 'We encountered an issue while connecting to Spotify',
    help: [
      'Make sure you allowed Earshot access on the Spotify page.',
      'Check that you can log in to your Spotify account.',
      'Try connecting again: authorization links expire after a few minutes.',
    ],
  },
  api: {
    title: 'Something went wrong',
    message: 'The server request failed. Please try again later',
    help: [
      'Wait a moment and try again.',
      'Reload the page to start a fresh request.',
      'If it keeps failing, Earshot may be under maintenance.',
    ],
  },
  network: {
    title: 'Network Error',
    message: 'Unable to connect to the server. Please check your internet connection',
    help: [
      'Check that you are online.',
      'Turn off a VPN, proxy or blocker that might stop requests to Earshot.',
      'Try again once your connection is back.',
    ],
  },
  default: {
    title: 'Something Went Wrong',
    message: 'An unexpected error occurred',
    help: [
      'Reload the page.',
      'Go back to the home page and try again.',
      'If it keeps happening, try again later.',
    ],
  },
};

export function errorPageType(value: string | null): ErrorPageType {
  return value === 'spotify' || value === 'api' || value === 'network' ? value : 'default';
}
