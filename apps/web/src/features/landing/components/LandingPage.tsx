import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageMeta } from '../../../components/ui/PageMeta';
import { PRODUCT_NAME, TAGLINE } from '@earshot/contract/site';
import { DemoVideo } from './DemoVideo';
import './landing.css';

const FEATURES: { title: string; text: string }[] = [
  {
    title: 'Recent plays',
    text: 'Follow what you and your friends played, track by track, as it happens.',
  },
  {
    title: 'Likes',
    text: "Your liked songs and your friends' in one feed. Like or unlike without leaving it.",
  },
  {
    title: 'Discovery',
    text: "New releases from artists you follow, your on-repeat likes, friends' favourites and forgotten gems.",
  },
  {
    title: 'Full-history import',
    text: 'Spotify shares only about 24 hours of plays. Import your extended history to bring back every one.',
  },
  {
    title: 'Public profiles',
    text: 'A stats page to share: top songs, top artists, listening time and more.',
  },
  {
    title: 'Playback',
    text: 'Control Spotify from the mini player, or play right in the browser with Premium.',
  },
];

interface LandingPageProps {
  /** The call to action that logs the visitor in. */
  connectAction: ReactNode;
  /** False when the backend could not be reached: the page says so instead of offering login. */
  backendReachable: boolean;
}

/** What visitors see at `/`. */
export function LandingPage({ connectAction, backendReachable }: LandingPageProps) {
  return (
    <div className="landing">
      <PageMeta />
      <section className="landing__hero">
        <p className="landing__eyebrow">{PRODUCT_NAME}</p>
        <h1 className="landing__headline">{TAGLINE}.</h1>
        <p className="landing__tagline">
          Connect your Spotify account and share a live feed of what you play, what you love and
          what you should hear next, with the friends whose taste you trust.
        </p>
        {backendReachable ? (
          <div className="landing__cta">
            {connectAction}
            <Link to="/spotify/beta" className="landing__beta-link">
              No access yet? Request a beta invite
            </Link>
          </div>
        ) : (
          <div className="landing__outage" role="alert">
            <p className="landing__outage-title">{PRODUCT_NAME} is having some issue</p>
            <p className="landing__outage-text">We will be back soon</p>
          </div>
        )}
      </section>
      <section className="landing__features" aria-labelledby="landing-features-title">
        <h2 id="landing-features-title" className="landing__section-title">
          Everything your listening has to say
        </h2>
        <ul className="feature-list">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="feature-list__item">
              <h3 className="feature-list__title">{feature.title}</h3>
              <p className="feature-list__text">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>
      {/* Below the features, out of the first screen: its poster would otherwise become the
          page's largest paint and wait for a request of its own (Lighthouse mobile 94 → 89). */}
      <section className="landing__demo" aria-labelledby="landing-demo-title">
        <h2 id="landing-demo-title" className="landing__section-title">
          See it in action
        </h2>
        <DemoVideo />
      </section>
    </div>
  );
}
