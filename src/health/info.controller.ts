import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { ErrorResponseDto } from '../common/errors/error-envelope.dto';
import { RELEASE } from '../observability/release';
import { MigrationSummary } from '../platform';
import { ReleaseInfoDto } from './release-info.dto';

/** Which release a process runs and where the databases' migrations stand: for operators during an upgrade. */
@ApiTags('Health')
@Controller('management')
export class InfoController {
  constructor(private readonly migrations: MigrationSummary) {}

  @Route('GET', 'info', {
    public: true,
    summary: 'Release and migration versions',
    description:
      "The running build's version (and commit), the newest master migration the master database has " +
      "applied against this build's newest, and how many clients are at this build's newest client " +
      'migration, as recorded by migration jobs and start-up checks. No address, identifier or secret. ' +
      'Read again at most every 2 s.',
    response: ReleaseInfoDto,
    responseDescription: 'The release and where its migrations stand',
    answers: {
      503: {
        description: 'SERVICE_UNAVAILABLE: the master database or Redis is out of reach, with Retry-After',
        type: ErrorResponseDto,
      },
    },
  })
  async get(): Promise<ReleaseInfoDto> {
    const { masterApplied, clients } = await this.migrations.summary();
    return {
      version: RELEASE.version,
      ...(RELEASE.commit ? { commit: RELEASE.commit } : {}),
      migrations: {
        master: { applied: masterApplied, expected: RELEASE.masterMigration },
        client: { expected: RELEASE.clientMigration, clients },
      },
    };
  }
}
