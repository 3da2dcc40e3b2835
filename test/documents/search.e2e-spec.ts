import { createUser, loginFull } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { textPdf } from './fixtures';
import { as, documentOf, upload } from './helpers';

interface Hit {
  fileId: number;
  rank: number;
}

/** Search ranking, the ranking window (SEARCH_RANK_WINDOW, 3 here) with its totals, and company isolation. */
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
    t = await bootApp({ env: { SMTP_URL: sink.url, OCR_ENABLED: 'true', SEARCH_RANK_WINDOW: '3' } });
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

  it('ranks every match and counts exactly up to the window, only the newest beyond it', async () => {
    const [most, one, two] = await indexed(admin, companyId, [
      'Valve valve valve valve inspection',
      'Valve inspection report',
      'Valve valve pump',
    ]);
    const exact = await search(admin, { companyId, q: 'valve' });
    expect(fileIds(exact.body)).toEqual([most, two, one]);
    expect(exact.body).toMatchObject({
      totalElements: 3,
      totalPages: 1,
      number: 0,
      size: 20,
      totalExact: true,
    });
    expect(exact.body.content[0].highlight).toMatch(/<mark>Valve<\/mark>/);

    const [newest] = await indexed(admin, companyId, ['Valve report']);
    const capped = await search(admin, { companyId, q: 'valve' });
    expect(fileIds(capped.body)).toEqual([two, newest, one]);
    expect(capped.body).toMatchObject({ totalElements: 3, totalPages: 1, totalExact: false });

    const second = await search(admin, { companyId, q: 'valve', page: 1, size: 2 });
    expect(fileIds(second.body)).toEqual([one]);
    expect(second.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, totalExact: false });
    const past = await search(admin, { companyId, q: 'valve', page: 2, size: 2 });
    expect(past.body).toMatchObject({ content: [], totalElements: 3, totalPages: 2, totalExact: false });
    const pastExact = await search(admin, { companyId, q: 'valve inspection', page: 1, size: 2 });
    expect(pastExact.body).toMatchObject({ content: [], totalElements: 2, totalExact: true });
  });

  it("never returns another company's documents, nor lets them take the window", async () => {
    const [theirs] = await indexed(otherAdmin, otherCompanyId, ['Valve valve valve valve valve valve']);
    const ours = await search(admin, { companyId, q: 'valve' });
    expect(fileIds(ours.body)).not.toContain(theirs);
    expect(ours.body.content).toHaveLength(3);
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
