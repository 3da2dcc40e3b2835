import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const WORK_ORDER_STATUSES = ['OPEN', 'IN_PROGRESS', 'ON_HOLD', 'COMPLETED', 'CANCELLED'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];
export const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Priority = (typeof PRIORITIES)[number];

@Entity('work_orders')
export class WorkOrder {
  @PrimaryGeneratedColumn() id: number;
  @Column() title: string;
  @Column({ type: 'varchar', nullable: true }) description: string | null;
  @Column({ type: 'int' }) unitId: number;
  @Column({ type: 'varchar', default: 'OPEN' }) status: WorkOrderStatus;
  @Column({ type: 'varchar', default: 'MEDIUM' }) priority: Priority;
  @Column({ type: 'timestamptz', nullable: true }) dueDate: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @Column({ type: 'int', nullable: true }) createdById: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
