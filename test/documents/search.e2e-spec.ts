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
 * Search ranking over every match (the RUM index), the ranking window without it (SEARCH_RANK_WINDOW,
 * 3 here) with its totals, odd queries, and company isolation.
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
      env: { SMTP_URL: sink.url, OCR_ENABLED: 'true', SEARCH_RANK_WINDOW: '3', SEARCH_EXACT_TOTAL: '2001' },
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

  it('ranks every match through the RUM index and counts them exactly, whatever the window', async () => {
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

  it('without the RUM index ranks the newest window of matches, and says the total stops there', async () => {
    const beta = await provisionClient(t, sink, 'beta');
    const betaAdmin = as(beta.adminToken, 'beta');
    const pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_beta`) });
    await pg.connect();
    await pg.query('DROP INDEX document_contents_rank_idx').finally(() => pg.end());
    const betaCompany = await enableOcr(t, betaAdmin);
    const [most, one, two] = await indexed(betaAdmin, betaCompany, [
      'Valve valve valve valve inspection',
      'Valve inspection report',
      'Valve valve pump',
    ]);
    const exact = await search(betaAdmin, { companyId: betaCompany, q: 'valve' });
    expect(fileIds(exact.body)).toEqual([most, two, one]);
    expect(exact.body).toMatchObject({ totalElements: 3, totalPages: 1, totalExact: true });

    const [newest] = await indexed(betaAdmin, betaCompany, ['Valve report']);
    const capped = await search(betaAdmin, { companyId: betaCompany, q: 'valve' });
    expect(fileIds(capped.body)).toEqual([two, newest, one]);
    expect(capped.body).toMatchObject({ totalElements: 3, totalPages: 1, totalExact: false });
    const second = await search(betaAdmin, { companyId: betaCompany, q: 'valve', page: 1, size: 2 });
    expect(fileIds(second.body)).toEqual([one]);
    expect(second.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, totalExact: false });
    const past = await search(betaAdmin, { companyId: betaCompany, q: 'valve', page: 2, size: 2 });
    expect(past.body).toMatchObject({ content: [], totalElements: 3, totalPages: 2, totalExact: false });
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
