// The GitHub Actions jobs the documentation hands out: none may paste a value an outsider chooses (a branch name, a
// pull request's title, an issue's body…) into a `run:` script. GitHub substitutes `${{ … }}` into the script's
// text before the shell reads it, so such a value runs as code; it must reach the script through `env:`.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Contexts whose value someone outside the repository's writers can choose, after GitHub's script-injection
 * guidance (docs.github.com/en/actions/concepts/security/script-injections): the head branch, and the event
 * payload, whose titles, bodies, labels, messages, names, emails and branch names come from whoever opened the
 * pull request, issue, comment or push; `inputs` too, typed by whoever dispatches the workflow.
 */
const UNTRUSTED =
  /\b(github\.head_ref|github\.event\.|github\.ref_name\b|github\.ref\b|inputs\.|steps\.[\w-]+\.outputs)/;

type Finding = { file: string; line: number; expression: string };

/** Markdown files that may show a workflow: README.md and everything under docs/. */
function documentationFiles(): string[] {
  const docs = path.join(ROOT, "docs");
  const underDocs = fs.existsSync(docs)
    ? (fs.readdirSync(docs, { recursive: true }) as string[]).filter((name) => name.endsWith(".md"))
    : [];
  return ["README.md", ...underDocs.map((name) => path.join("docs", name))];
}

/** The ```yaml / ```yml blocks of a Markdown text, with the line each starts on (1-based, of its first line). */
function yamlBlocks(markdown: string): Array<{ start: number; lines: string[] }> {
  const blocks: Array<{ start: number; lines: string[] }> = [];
  let current: { start: number; lines: string[] } | null = null;
  markdown.split("\n").forEach((line, index) => {
    if (current === null && /^\s*```\s*ya?ml\b/i.test(line)) current = { start: index + 2, lines: [] };
    else if (current !== null && /^\s*```\s*$/.test(line)) {
      blocks.push(current);
      current = null;
    } else current?.lines.push(line);
  });
  return blocks;
}

/**
 * Every `${{ … }}` of an untrusted context inside a `run:` value: the rest of the `run:` line and, for a block
 * (`|`, `>`) or a plain scalar that continues, every following line indented deeper than the `run` key.
 */
function injectionsIn(yaml: string[], where: { file: string; start: number }): Finding[] {
  const findings: Finding[] = [];
  for (let index = 0; index < yaml.length; index++) {
    const key = /^(\s*(?:-\s+)?)run:(.*)$/.exec(yaml[index]);
    if (!key) continue;
    const keyColumn = key[1].length;
    const script = [{ text: key[2], at: index }];
    while (index + 1 < yaml.length) {
      const next = yaml[index + 1];
      if (next.trim() !== "" && next.length - next.trimStart().length <= keyColumn) break;
      index += 1;
      script.push({ text: next, at: index });
    }
    for (const { text, at } of script)
      for (const [expression, inner] of text.matchAll(/\$\{\{(.*?)\}\}/g))
        if (UNTRUSTED.test(inner)) findings.push({ file: where.file, line: where.start + at, expression });
  }
  return findings;
}

describe("GitHub Actions jobs in the documentation", () => {
  it("pass branch names, titles, bodies and other outsiders' values to run: scripts through env: only", () => {
    const findings = documentationFiles().flatMap((file) =>
      yamlBlocks(fs.readFileSync(path.join(ROOT, file), "utf8")).flatMap((block) =>
        injectionsIn(block.lines, { file, start: block.start }),
      ),
    );
    expect(findings).toEqual([]);
  });

  it("docs/api-cli-ci.md still shows the CI job, so the check above has something to check", () => {
    const blocks = yamlBlocks(fs.readFileSync(path.join(ROOT, "docs", "api-cli-ci.md"), "utf8"));
    expect(blocks.some((block) => block.lines.some((line) => /^\s*run: \|/.test(line)))).toBe(true);
  });

  it("catches the pattern in a block script, an inline one and a list item, and leaves env: and with: alone", () => {
    const yaml = [
      "steps:",
      "  - name: Gate",
      "    env:",
      "      BRANCH: ${{ github.head_ref || github.ref_name }}",
      "      TITLE: ${{ github.event.pull_request.title }}",
      "    working-directory: ${{ runner.temp }}/assay",
      "    run: |",
      '      echo "$BRANCH" "${{ runner.os }}"',
      '      npm run eval -- --name "${{ github.head_ref || github.ref_name }} ${{ github.sha }}"',
      "",
      '      echo "${{ github.event.issue.body }}"',
      "  - run: echo '${{ github.event.comment.body }}'",
      "  - with:",
      "      script: ${{ inputs.message }}",
      "    run: >-",
      '      echo "${{ inputs.message }}"',
      "  - run: echo done",
    ];
    expect(injectionsIn(yaml, { file: "x.yml", start: 1 })).toEqual([
      { file: "x.yml", line: 9, expression: "${{ github.head_ref || github.ref_name }}" },
      { file: "x.yml", line: 11, expression: "${{ github.event.issue.body }}" },
      { file: "x.yml", line: 12, expression: "${{ github.event.comment.body }}" },
      { file: "x.yml", line: 16, expression: "${{ inputs.message }}" },
    ]);
  });
});
