import { Module } from '@nestjs/common';
import { CompaniesController } from './companies.controller';
import { CompaniesService } from './companies.service';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';
import { UserAccessService } from './user-access.service';
import { UserLookup } from './user-lookup';
import { UsersAdminController } from './users-admin.controller';
import { UsersAdminService } from './users-admin.service';
import { Company } from './entities/company.entity';
import { Role } from './entities/role.entity';
import { User } from './entities/user.entity';

export const USER_ENTITIES = [Company, Role, User];

/** User administration: /api/admin/users, /api/admin/companies, /api/admin/roles. */
@Module({
  controllers: [UsersAdminController, CompaniesController, RolesController],
  providers: [UsersAdminService, UserAccessService, CompaniesService, RolesService, UserLookup],
})
export class UsersModule {}
