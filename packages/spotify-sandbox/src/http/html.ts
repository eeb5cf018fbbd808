const markup = Symbol('markup');

/** HTML that is already safe to emit; build it only with the `html` tag. */
export interface Markup {
  readonly [markup]: string;
}

type Interpolation = string | number | Markup | readonly Markup[];

/** Template tag that escapes every interpolated string and number; markup is inserted as is. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += toHtml(value) + (strings[index + 1] ?? '');
  });
  return { [markup]: out };
}

export function renderHtml(fragment: Markup): string {
  return fragment[markup];
}

function toHtml(value: Interpolation): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  if (isMarkupList(value)) return value.map((item) => item[markup]).join('');
  return value[markup];
}

function isMarkupList(value: Markup | readonly Markup[]): value is readonly Markup[] {
  return Array.isArray(value);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}
