// writeReport and a failing assertion write the report Python's
// write_report writes (report.html and report.md beside summary.json,
// summary.csv, comparison.png and the audit's folder), and the assertion
// points at report.html.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const sa = require("shuffle-audit");

/** Fisher–Yates with j in [0, i): the off-by-one (Sattolo's cycles), biased. */
function offByOne(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

/** Every file under `dir`, as paths relative to it, sorted. */
function listed(dir, under = "") {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true })
    .flatMap(e => e.isDirectory() ? listed(dir, under + e.name + "/") : [under + e.name]).sort();
}

test("a failing assertFair writes the whole report and points at report.html", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-report-"));
  try {
    assert.throws(() => sa.assertFair(offByOne, { n: 10, trials: 3000, reportDir: dir }), e => {
      assert.ok(e instanceof assert.AssertionError);
      assert.ok(e.message.endsWith(`report: ${path.join(dir, "report.html")}`), e.message);
      return true;
    });
    assert.deepEqual(listed(dir), [
      "comparison.png", "offByOne/counts.csv", "offByOne/heatmap.png", "offByOne/lines.csv",
      "report.html", "report.md", "summary.csv", "summary.json",
    ]);
    const html = fs.readFileSync(path.join(dir, "report.html"), "utf8");
    assert.match(html, /offByOne/);
    assert.match(html, /data:image\/png;base64,/);
    const markdown = fs.readFileSync(path.join(dir, "report.md"), "utf8");
    assert.match(markdown, /offByOne/);
    assert.match(markdown, /\*\*Generated:\*\* \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, "summary.json"), "utf8")).audits[0].verdict, "biased");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("writeReport of a sampler writes its report too", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-report-"));
  try {
    const result = sa.auditPicks(function uniform(w, random) { return Math.floor(random() * w.length); },
      { weights: [1, 1, 2], trials: 2000 });
    assert.equal(result.writeReport(dir), dir);
    const files = listed(dir);
    for (const name of ["report.html", "report.md", "summary.json", "summary.csv"]) assert.ok(files.includes(name), files.join(" "));
    assert.ok(files.some(f => f.startsWith("uniform/")), files.join(" "));
    assert.equal(result.summary.audits[0].subject, "uniform");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
