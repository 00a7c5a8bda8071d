// Preloaded into the reference CLI (node -r) by bp_import_compare.py: the reference stamps
// import_timestamp with `new Date().toISOString()`; this pins every argument-less Date (and
// Date.now) to SOURCE_DATE_EPOCH seconds, as our bp does, so both write the same bytes.
"use strict";
const pinned = Number(process.env.SOURCE_DATE_EPOCH) * 1000;
if (Number.isFinite(pinned)) {
  const RealDate = Date;
  class PinnedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(pinned);
      else super(...args);
    }
    static now() {
      return pinned;
    }
  }
  globalThis.Date = PinnedDate;
}
