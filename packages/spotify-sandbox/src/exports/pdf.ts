/**
 * `ReadMeFirst_ExtendedStreamingHistory.pdf`: Spotify puts a multi-language guide to the fields in
 * every extended history export. The sandbox's is a one-page PDF 1.4 with its own short text,
 * built by hand (Helvetica, one content stream, a correct cross-reference table).
 */

const README_LINES = [
  'Read Me First',
  '',
  'Spotify Sandbox - Extended Streaming History',
  '',
  'This archive holds the streaming history of a sandbox account for the life of the account.',
  'It was generated offline from the sandbox world; no real person or listening is involved.',
  '',
  'Each JSON file is one array of plays, oldest first, split into files of the same number of rows.',
  'Audio files hold music, podcast episodes and audiobook chapters; video files hold videos.',
  '',
  'ts: when the play ended (UTC).  platform: the device.  ms_played: how long it was heard.',
  'conn_country, ip_addr: where it was streamed from.',
  'master_metadata_*: track, album artist and album names; spotify_track_uri: the track.',
  'episode_name, episode_show_name, spotify_episode_uri: podcast episodes.',
  'audiobook_*: audiobook chapters.',
  'reason_start, reason_end: why the play started and ended.',
  'shuffle, skipped, offline, offline_timestamp, incognito_mode: how it was played.',
];

function pdfText(line: string): string {
  return line.replace(/[\\()]/g, (char) => `\\${char}`);
}

export function readMeFirstPdf(): Buffer {
  const content = [
    'BT',
    '/F1 11 Tf',
    '14 TL',
    '50 790 Td',
    ...README_LINES.map((line) => `(${pdfText(line)}) Tj T*`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ' +
      '/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
