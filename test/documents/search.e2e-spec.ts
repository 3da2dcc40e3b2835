import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { textPdf } from './fixtures';
import { Client } from 'pg';
import { databaseUrl } from '../support/test-env';
import { as, documentOf, enableOcr, upload } from './helpers';

const BEST = 'Turbine turbine turbine turbine blade erosion';
const NEWER = 'Turbine hall walkthrough, nothing to report';

interface Hit {
  fileId: number;
  rank: number;
}

/**
 * Search ranking over every match by word levels (against scoring every match in SQL, for each shape
 * of query), the exact and estimated totals, odd queries, and company isolation.
 */
describe('document search', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;
  let companyId: number;
  let otherCompanyId: number;
  let admin: Record<string, string>;
  let otherAdmin: Record<string, string>;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({
      env: { SMTP_URL: sink.url, OCR_ENABLED: 'true', SEARCH_EXACT_TOTAL: '2001' },
    });
    acme = await provisionClient(t, sink, 'acme');
    admin = as(acme.adminToken, 'acme');
    const companies = await t.http().get('/api/admin/companies').set(admin).expect(200);
    companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    const other = await t.http().post('/api/admin/companies').set(admin).send({ name: 'Other' }).expect(201);
    otherCompanyId = other.body.data.id;
    const user = { email: 'other@acme.test', password: 'Other-password-1', role: 'ADMIN' as const };
    await createUser(t, acme.adminToken, { ...user, companyId: otherCompanyId }, 'acme');
    otherAdmin = as((await loginFull(t, user.email, user.password, 'acme')).body.jwt, 'acme');
    await t.http().post(`/api/companies/${companyId}/ocr-config/enable`).set(admin).expect(200);
    await t.http().post(`/api/companies/${otherCompanyId}/ocr-config/enable`).set(otherAdmin).expect(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  /** Uploads one PDF per text, one after the other (so ids follow the order), and waits for each. */
  async function indexed(headers: Record<string, string>, company: number, texts: string[]) {
    const fileIds: number[] = [];
    for (const [i, text] of texts.entries()) {
      const up = await upload(t, headers, company, [[`doc-${i}.pdf`, textPdf([text])]]).expect(201);
      const doc = await documentOf(t, headers, up.body[0].id);
      expect(doc.status).toBe('COMPLETED');
      fileIds.push(up.body[0].id);
    }
    return fileIds;
  }

  const search = (headers: Record<string, string>, query: Record<string, unknown>) =>
    t.http().get('/search/documents').set(headers).query(query).expect(200);
  const fileIds = (body: { content: Hit[] }) => body.content.map((h) => h.fileId);

  it('ranks the document with more occurrences first, equal ranks newest first', async () => {
    const [once, often, sameAsOnce] = await indexed(admin, companyId, [
      'Gasket check',
      'Gasket gasket gasket gasket seal',
      'Gasket check',
    ]);
    const found = await search(admin, { companyId, q: 'gasket' });
    expect(fileIds(found.body)).toEqual([often, sameAsOnce, once]);
    const ranks = found.body.content.map((h: Hit) => h.rank);
    expect(ranks[0]).toBeGreaterThan(ranks[1]);
    expect(ranks[1]).toBe(ranks[2]);
    expect(found.body).toMatchObject({ totalElements: 3, totalPages: 1, totalExact: true });
  });

  it("ranks every match by its words' levels and counts them exactly", async () => {
    const [most, one, two] = await indexed(admin, companyId, [
      'Valve valve valve valve inspection',
      'Valve inspection report',
      'Valve valve pump',
    ]);
    const [newest] = await indexed(admin, companyId, ['Valve report']);
    const all = await search(admin, { companyId, q: 'valve' });
    expect(fileIds(all.body)).toEqual([most, two, newest, one]);
    expect(all.body).toMatchObject({
      totalElements: 4,
      totalPages: 1,
      number: 0,
      size: 20,
      totalExact: true,
    });
    expect(all.body.content[0].highlight).toMatch(/<mark>Valve<\/mark>/);
    const ranks = all.body.content.map((h: Hit) => h.rank);
    expect(ranks[0]).toBeGreaterThan(ranks[1]);
    expect(ranks[2]).toBe(ranks[3]);

    const second = await search(admin, { companyId, q: 'valve', page: 1, size: 3 });
    expect(fileIds(second.body)).toEqual([one]);
    expect(second.body).toMatchObject({ totalElements: 4, totalPages: 2, number: 1, totalExact: true });
    const past = await search(admin, { companyId, q: 'valve', page: 2, size: 3 });
    expect(past.body).toMatchObject({ content: [], totalElements: 4, totalPages: 2, totalExact: true });
  });

  it('puts an older document that matches better than 2,000 newer ones first, with the total', async () => {
    const pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_acme`) });
    await pg.connect();
    try {
      const seed = async (count: number, text: string) =>
        pg.query(
          `WITH files AS (
             INSERT INTO uploaded_files (company_id, name, hash, ext, mime, size, provider, folder_path, storage_key)
             SELECT $1, 'seed-' || i || '.pdf', md5(i::text), '.pdf', 'application/pdf', 1, 'local', 'seed', 'seed/' || i
               FROM generate_series(1, $2::int) i RETURNING id)
           INSERT INTO document_contents (company_id, file_id, status, extracted_text, text_length,
             indexed_for_search, search_vector)
           SELECT $1, id, 'completed', t.text, length(t.text), true, to_tsvector('english', t.text)
             FROM files, (SELECT $3::text AS text) t ORDER BY id`,
          [companyId, count, text],
        );
      await seed(1, BEST);
      await seed(2000, NEWER);
      const [{ best }] = (
        await pg.query(`SELECT file_id AS best FROM document_contents WHERE extracted_text = $1`, [BEST])
      ).rows;
      const found = await search(admin, { companyId, q: 'turbine', size: 5 });
      expect(found.body.content[0].fileId).toBe(best);
      expect(found.body.content[0].highlight).toMatch(/<mark>Turbine<\/mark>/);
      expect(found.body).toMatchObject({ totalElements: 2001, totalPages: 401, totalExact: true });
      const rest = found.body.content.slice(1).map((h: Hit) => h.fileId);
      expect(rest).toEqual([...rest].sort((a, b) => b - a));
      const last = await search(admin, { companyId, q: 'turbine', page: 400, size: 5 });
      expect(last.body.content).toHaveLength(1);
      expect(last.body.content[0].fileId).toBe(best + 1);

      // Past SEARCH_EXACT_TOTAL (2001 here) the total is the planner's estimate, at least the count reached.
      await seed(200, NEWER);
      await pg.query('ANALYZE document_contents');
      const estimated = await search(admin, { companyId, q: 'turbine', size: 5 });
      expect(estimated.body.content[0].fileId).toBe(best);
      expect(estimated.body.totalExact).toBe(false);
      expect(estimated.body.totalElements).toBeGreaterThanOrEqual(2002);
      expect(Math.abs(estimated.body.totalElements - 2201)).toBeLessThan(2201 * 0.1);
    } finally {
      await pg.end();
    }
  });

  it('answers queries full of operators and quotes as text, never as SQL or a 500', async () => {
    for (const q of [
      "'); DROP TABLE document_contents; --",
      'valve & | ! <-> :* \\',
      '"unbalanced valve',
      '-',
      '""',
      'or or or',
      '变压器" or -"',
      '%_*?[]{}()<>',
      'valve:*A',
    ]) {
      const res = await t.http().get('/search/documents').set(admin).query({ companyId, q });
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
      expect(Array.isArray(res.body.content)).toBe(true);
    }
    const stillThere = await search(admin, { companyId, q: 'valve' });
    expect(stillThere.body.totalElements).toBe(4);
  });

  it('pages every shape of query in the order of scoring every match, and keeps the levels formula', async () => {
    const beta = await provisionClient(t, sink, 'beta');
    const betaAdmin = as(beta.adminToken, 'beta');
    const betaCompany = await enableOcr(t, betaAdmin);
    const pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_beta`) });
    await pg.connect();
    try {
      // 3,000 documents: each word 0 to 4 times, lengths from a few words to a few hundred.
      await pg.query(`SELECT setseed(0.42)`);
      await pg.query(
        `WITH files AS (
           INSERT INTO uploaded_files (company_id, name, hash, ext, mime, size, provider, folder_path, storage_key)
           SELECT $1, 'mix-' || i || '.pdf', md5('mix' || i), '.pdf', 'application/pdf', 1, 'local', 'mix', 'mix/' || i
             FROM generate_series(1, 3000) i RETURNING id),
         texts AS (
           SELECT f.id, (SELECT string_agg(repeat(w || ' ', floor(random() * random() * 5)::int), '')
                           FROM unnest('{valve,pump,seal,gasket,turbine}'::text[]) w WHERE f.id > 0)
                        || repeat('rotor cable panel ', floor(random() * random() * 80)::int) AS text
             FROM files f ORDER BY f.id)
         INSERT INTO document_contents (company_id, file_id, status, extracted_text, text_length,
           indexed_for_search, search_vector)
         SELECT $1, id, 'completed', text, length(text), true, to_tsvector('english', text) FROM texts`,
        [betaCompany],
      );
      await pg.query('ANALYZE document_contents');

      const [doc] = (
        await pg.query(
          `SELECT (SELECT json_object_agg(lexeme, cardinality(positions)) FROM unnest(search_vector)) AS tf,
                  tsvector_to_array(search_levels) AS levels
             FROM document_contents WHERE company_id = $1 AND search_vector @@ 'valv & rotor' LIMIT 1`,
          [betaCompany],
        )
      ).rows as { tf: Record<string, number>; levels: string[] }[];
      const length = Object.values(doc.tf).reduce((a, b) => a + b, 0);
      const level = (tf: number) => 1 + Math.floor((16 * tf) / (tf + 1.2 * (0.25 + (0.75 * length) / 250)));
      expect(doc.levels.sort()).toEqual(
        Object.entries(doc.tf)
          .map(([w, tf]) => `${w}#${level(tf)}`)
          .sort(),
      );

      const cases: [string, string[]][] = [
        ['valve', ['valv']],
        ['valve pump', ['valv', 'pump']],
        ['valve pump seal', ['valv', 'pump', 'seal']],
        ['valve or pump', ['valv', 'pump']],
        ['valve or pump seal', ['valv', 'pump', 'seal']],
        ['valve -pump', ['valv']],
        ['"valve pump"', ['valv', 'pump']],
        ['valve pump seal gasket', ['valv', 'pump', 'seal', 'gasket']],
        ['-valve', []],
        ['valve rotor', ['valv', 'rotor']],
      ];
      for (const [q, words] of cases) {
        const expected = (
          await pg.query(
            `SELECT d.file_id AS "fileId", (SELECT coalesce(sum(substring(x FROM '#(\\d+)$')::int), 0)
                 FROM unnest(tsvector_to_array(d.search_levels)) x
                WHERE x = ANY (SELECT w || '#' || l FROM unnest($3::text[]) w, generate_series(1, 16) l))::int AS score
               FROM document_contents d
              WHERE d.company_id = $1 AND d.search_vector @@ websearch_to_tsquery('english', $2)
              ORDER BY score DESC, d.id DESC LIMIT 75`,
            [betaCompany, q, words],
          )
        ).rows.map((r: { fileId: number; score: number }) => ({
          fileId: r.fileId,
          rank: words.length ? r.score / (16 * words.length) : 0,
        }));
        expect(expected.length).toBeGreaterThan(20);
        const got: { fileId: number; rank: number }[] = [];
        for (const page of [0, 1, 2]) {
          const res = await search(betaAdmin, { companyId: betaCompany, q, page, size: 25 });
          got.push(...res.body.content.map((h: Hit) => ({ fileId: h.fileId, rank: h.rank })));
        }
        expect({ q, got }).toEqual({ q, got: expected });
      }
    } finally {
      await pg.end();
    }
  });

  it("never returns another company's documents", async () => {
    const [theirs] = await indexed(otherAdmin, otherCompanyId, ['Valve valve valve valve valve valve']);
    const ours = await search(admin, { companyId, q: 'valve' });
    expect(fileIds(ours.body)).not.toContain(theirs);
    expect(ours.body.content).toHaveLength(4);
    expect(ours.body.content.every((h: { companyId: number }) => h.companyId === companyId)).toBe(true);
    const other = await search(otherAdmin, { companyId: otherCompanyId, q: 'valve' });
    expect(fileIds(other.body)).toEqual([theirs]);
    expect(other.body).toMatchObject({ totalElements: 1, totalExact: true });
    await t
      .http()
      .get('/search/documents')
      .set(admin)
      .query({ companyId: otherCompanyId, q: 'valve' })
      .expect(403);
  });
});
