// What `svc carriers check` reports, whatever the protocol: one line per step, and whether all went well.

export interface CheckLine {
  /** ok: the step worked; fail: it did not (exit code 1); note: worth knowing, neither. */
  status: 'ok' | 'fail' | 'note';
  text: string;
}

export interface CheckReport {
  ok: boolean;
  lines: CheckLine[];
}
