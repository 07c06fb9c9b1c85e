import { displayTime } from '../time/display-clock.ts';

/**
 * The building blocks of the emails: French typography, dates in the installation's zone, numbers
 * in fr-FR, and one HTML layout (tables and inline styles, no remote image, no script) that common
 * clients show alike, with its plain-text twin.
 */

/** U+00A0 before ':', U+202F before ';', '!', '?' and inside « ». */
export const NBSP = '\u00a0';
export const NNBSP = '\u202f';
export const quote = (text: string) => `«${NBSP}${text}${NBSP}»`;

const NUMBER = new Intl.NumberFormat('fr-FR');
export const formatNumber = (n: number) => NUMBER.format(n);

/** `14/11/2025 08:09 (UTC+01:00)` in `zone`. */
export function formatInstant(iso: string, zone: string): string {
  const { text, offset } = displayTime(new Date(iso), zone);
  return `${text.slice(0, 16)} (${offset})`;
}

/** `1 enregistrement`, `3 enregistrements`. */
export const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n > 1 ? many : one}`;

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** One part of an email, written once for both bodies. */
export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'facts'; rows: [string, string][] }
  | { kind: 'heading'; text: string }
  | { kind: 'list'; items: { text: string; href?: string }[]; more?: { text: string; href: string } }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'alert'; text: string };

const FONT = 'font-family:Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1e293b';
const LINK = 'color:#0f5e6e;text-decoration:underline';

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 14px">${escapeHtml(block.text)}</p>`;
    case 'alert':
      return `<p style="margin:0 0 14px;padding:10px 12px;border-left:4px solid #b91c1c;background:#fef2f2;color:#7f1d1d">${escapeHtml(block.text)}</p>`;
    case 'heading':
      return `<h2 style="margin:22px 0 8px;font-size:16px;color:#0f5e6e">${escapeHtml(block.text)}</h2>`;
    case 'facts':
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 14px">${block.rows
        .map(
          ([name, value]) =>
            `<tr><th scope="row" style="text-align:left;font-weight:600;padding:4px 16px 4px 0;vertical-align:top">${escapeHtml(name)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'list': {
      const items = block.items.map(
        (i) =>
          `<li style="margin:2px 0">${i.href ? `<a href="${escapeHtml(i.href)}" style="${LINK}">${escapeHtml(i.text)}</a>` : escapeHtml(i.text)}</li>`,
      );
      if (block.more)
        items.push(
          `<li style="margin:2px 0"><a href="${escapeHtml(block.more.href)}" style="${LINK}">${escapeHtml(block.more.text)}</a></li>`,
        );
      return `<ul style="margin:0 0 14px;padding-left:22px">${items.join('')}</ul>`;
    }
    case 'link':
      return `<p style="margin:18px 0"><a href="${escapeHtml(block.href)}" style="display:inline-block;padding:9px 16px;background:#0f5e6e;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(block.text)}</a></p>`;
  }
}

function textBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'alert':
      return `/!\\ ${block.text}`;
    case 'heading':
      return `${block.text}\n${'-'.repeat(Math.min(block.text.length, 60))}`;
    case 'facts':
      return block.rows.map(([name, value]) => `${name}${NBSP}: ${value}`).join('\n');
    case 'list': {
      const lines = block.items.map((i) => `- ${i.text}${i.href ? `\n  ${i.href}` : ''}`);
      if (block.more) lines.push(`- ${block.more.text}\n  ${block.more.href}`);
      return lines.join('\n');
    }
    case 'link':
      return `${block.text}${NBSP}: ${block.href}`;
  }
}

export interface Layout {
  title: string;
  blocks: Block[];
  /** The console's address, for the footer. */
  publicUrl: string;
}

const FOOTER =
  'Email envoyé automatiquement par la console Synchro selon les réglages de l’écran Complément. Pour ne plus le recevoir, décochez la notification correspondante.';

export function renderHtml({ title, blocks, publicUrl }: Layout): string {
  return `<!DOCTYPE html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9">
<main>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:640px;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px">
<tr><td style="padding:18px 24px;background:#0f5e6e;border-radius:8px 8px 0 0"><h1 style="margin:0;color:#ffffff;font-family:Segoe UI,Helvetica,Arial,sans-serif;font-size:18px;font-weight:600">${escapeHtml(title)}</h1></td></tr>
<tr><td style="padding:22px 24px;${FONT}">
${blocks.map(htmlBlock).join('\n')}
</td></tr>
<tr><td style="padding:14px 24px;border-top:1px solid #e2e8f0;font-family:Segoe UI,Helvetica,Arial,sans-serif;font-size:12px;color:#475569">${escapeHtml(FOOTER)} <a href="${escapeHtml(`${publicUrl}/complement`)}" style="color:#0f5e6e">${escapeHtml(`${publicUrl}/complement`)}</a></td></tr>
</table></td></tr></table>
</main>
</body></html>
`;
}

export function renderText({ title, blocks, publicUrl }: Layout): string {
  return `${title}\n${'='.repeat(Math.min(title.length, 72))}\n\n${blocks.map(textBlock).join('\n\n')}\n\n--\n${FOOTER}\n${publicUrl}/complement\n`;
}
