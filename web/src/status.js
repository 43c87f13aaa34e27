// The line beside the buttons: how the last evaluation went, after a notice
// that stays until the reader acts (edits, picks an example, opens another
// link). A share link that could not be opened is said there once, and every
// evaluation rewrites the line 60-250 ms later: without a notice of its own,
// the reader would never be told.
import { ShareTooLarge } from './share.js';

export class StatusLine {
  constructor(element) {
    this.element = element;
    this.notice = '';
    this.text = '';
  }

  // A notice that outlives the evaluations that follow it.
  warn(notice) {
    this.notice = notice;
    this.render();
  }

  // The latest evaluation's account (or napkin's loading state).
  show(text) {
    this.text = text;
    this.render();
  }

  // The reader has acted: the notice is about what was on screen before.
  dismiss() {
    if (!this.notice) return;
    this.notice = '';
    this.render();
  }

  render() {
    this.element.textContent = this.notice && this.text ? `${this.notice} · ${this.text}` : this.notice || this.text;
    this.element.classList?.toggle('notice', Boolean(this.notice));
  }
}

// What an evaluation's report says, in a line: its time, its errors, its checks.
export function evaluationStatus(report, r, ms) {
  const parts = [`evaluated in ${ms.toFixed(1)} ms`];
  if (!report) parts.push(`napkin stopped (exit status ${r.code})`);
  else {
    const n = (report.errors ?? []).length;
    const checks = report.checks ?? [];
    const passed = checks.filter((c) => c.passed === true).length;
    // "no errors" only where nothing is listed under the editor.
    if (n > 0 || passed === checks.length) parts.push(n === 0 ? 'no errors' : n === 1 ? '1 error' : `${n} errors`);
    if (checks.length) parts.push(`${passed} of ${checks.length} checks pass`);
  }
  return parts.join(' · ');
}

// Why a share link was not opened, for the reader.
export function shareNotice(error) {
  if (error instanceof ShareTooLarge) return `This share link was not opened: ${error.message}; opened the default example instead.`;
  return `This share link is damaged (${error.message}); opened the default example instead.`;
}
