/** Spotify's own page where people request their data. */
const SPOTIFY_PRIVACY_URL = 'https://www.spotify.com/account/privacy/';

/** How to get the Extended Streaming History out of Spotify (docs/product.md §2, Import page). */
export function ImportInstructions() {
  return (
    <section className="card import-card" aria-labelledby="import-how-title">
      <h2 id="import-how-title" className="card__title">
        Get your history from Spotify
      </h2>
      <ol className="import-steps">
        <li>
          Open Spotify&rsquo;s{' '}
          <a href={SPOTIFY_PRIVACY_URL} target="_blank" rel="noreferrer">
            privacy page
          </a>{' '}
          (Account → Privacy) and find <strong>Download your data</strong>.
        </li>
        <li>
          Tick <strong>Extended streaming history</strong>, request the data and confirm the e-mail
          Spotify sends you.
        </li>
        <li>
          Wait for the e-mail with the download link: Spotify takes a few days, sometimes a few
          weeks.
        </li>
        <li>
          Download <strong>my_spotify_data.zip</strong> and upload it below as it is; there is no
          need to unzip it.
        </li>
      </ol>
      <p className="import-muted">
        The basic <strong>Account data</strong> export arrives sooner and works too, but it only
        covers the last year of listening.
      </p>
    </section>
  );
}
