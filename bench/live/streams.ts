import http from 'node:http';

export interface Stream {
  request: http.ClientRequest;
  /** Arrival time (`performance.now()`) of each play, by its date, this stream received. */
  arrivals: Map<string, number>;
}

/** Opens a `GET /api/live` stream (trying again a few times if refused); resolves once `ready`. */
export async function openStream(
  baseUrl: string,
  cookie: string,
  agent: http.Agent,
  refusals: string[],
): Promise<Stream> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openStreamOnce(baseUrl, cookie, agent);
    } catch (error) {
      if (attempt >= 3) throw error;
      refusals.push((error as Error).message);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

function openStreamOnce(baseUrl: string, cookie: string, agent: http.Agent): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number>();
    let ready = false;
    let buffer = '';
    const request = http.get(`${baseUrl}/api/live`, { headers: { cookie }, agent }, (response) => {
      if (response.statusCode !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          reject(new Error(`GET /api/live answered ${response.statusCode}: ${body.slice(0, 200)}`)),
        );
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: ready')) {
            if (!ready) resolve({ request, arrivals });
            ready = true;
          } else if (block.startsWith('event: play')) {
            const date = /"date":"([^"]+)"/.exec(block)?.[1];
            if (date) arrivals.set(date, now);
          }
        }
      });
    });
    request.on('error', reject);
  });
}

/** Opens streams `batch` at a time (each process's fan-out registers them one by one). */
export async function openStreams(
  targets: readonly { url: string; cookie: string }[],
  agent: http.Agent,
  refusals: string[],
  batch = 250,
): Promise<Stream[]> {
  const streams: Stream[] = [];
  for (let start = 0; start < targets.length; start += batch) {
    streams.push(
      ...(await Promise.all(
        targets
          .slice(start, start + batch)
          .map(({ url, cookie }) => openStream(url, cookie, agent, refusals)),
      )),
    );
  }
  return streams;
}
