import { Entity, PrimaryColumn } from 'typeorm';

/** A sandbox granted to a user who is neither its creator nor an ADMIN. */
@Entity('user_sandboxes')
export class UserSandbox {
  @PrimaryColumn() userId: number;
  @PrimaryColumn() sandboxId: number;
}
