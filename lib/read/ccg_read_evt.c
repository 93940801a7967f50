/*
 * ccg_read_evt.c - the OTF2 event callbacks of the reader (see
 * ccg_read_i.h): one per event kind, each packing OTF2's arguments in the
 * order of ccg_schema[kind]; ccg_rd_emit_event adds the attribute list.
 */
#include "ccg_read_i.h"

#include "ccg_codec.h"

/* Every event callback starts with these OTF2 arguments ... */
#define EV_ARGS                                                          \
	OTF2_LocationRef loc_, OTF2_TimeStamp time_, uint64_t pos_,      \
		void *ud_, OTF2_AttributeList *al_
/* ... declares the scratch buffer `b` ... */
#define EV_BEGIN                                                         \
	ccg_buf *b = ccg_rd_begin(ud_);                                  \
	(void)b;                                                         \
	(void)loc_;                                                      \
	(void)pos_
/* ... and ends by handing the record to the sink. */
#define EV_END(kind, call)                                               \
	return ccg_rd_emit_event(ud_, kind, time_, call, al_)

static OTF2_CallbackCode ev_unknown(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_UNKNOWN, 0);
}

static OTF2_CallbackCode ev_buffer_flush(EV_ARGS, OTF2_TimeStamp stop)
{
	EV_BEGIN;
	ccg_put_u(b, stop);
	EV_END(CCG_EV_BUFFER_FLUSH, 0);
}

static OTF2_CallbackCode ev_measurement_on_off(EV_ARGS,
					       OTF2_MeasurementMode mode)
{
	EV_BEGIN;
	ccg_put_u(b, mode);
	EV_END(CCG_EV_MEASUREMENT_ON_OFF, 0);
}

static OTF2_CallbackCode ev_enter(EV_ARGS, OTF2_RegionRef region)
{
	EV_BEGIN;
	ccg_put_u(b, region);
	EV_END(CCG_EV_ENTER, region);
}

static OTF2_CallbackCode ev_leave(EV_ARGS, OTF2_RegionRef region)
{
	EV_BEGIN;
	ccg_put_u(b, region);
	EV_END(CCG_EV_LEAVE, region);
}

static OTF2_CallbackCode ev_mpi_send(EV_ARGS, uint32_t receiver,
				     OTF2_CommRef comm, uint32_t tag,
				     uint64_t length)
{
	EV_BEGIN;
	ccg_put_u(b, receiver);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	EV_END(CCG_EV_MPI_SEND, 0);
}

static OTF2_CallbackCode ev_mpi_isend(EV_ARGS, uint32_t receiver,
				      OTF2_CommRef comm, uint32_t tag,
				      uint64_t length, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, receiver);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_ISEND, 0);
}

static OTF2_CallbackCode ev_mpi_isend_complete(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_ISEND_COMPLETE, 0);
}

static OTF2_CallbackCode ev_mpi_irecv_request(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_IRECV_REQUEST, 0);
}

static OTF2_CallbackCode ev_mpi_recv(EV_ARGS, uint32_t sender,
				     OTF2_CommRef comm, uint32_t tag,
				     uint64_t length)
{
	EV_BEGIN;
	ccg_put_u(b, sender);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	EV_END(CCG_EV_MPI_RECV, 0);
}

static OTF2_CallbackCode ev_mpi_irecv(EV_ARGS, uint32_t sender,
				      OTF2_CommRef comm, uint32_t tag,
				      uint64_t length, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, sender);
	ccg_put_u(b, comm);
	ccg_put_u(b, tag);
	ccg_put_u(b, length);
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_IRECV, 0);
}

static OTF2_CallbackCode ev_mpi_request_test(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_REQUEST_TEST, 0);
}

static OTF2_CallbackCode ev_mpi_request_cancelled(EV_ARGS, uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_MPI_REQUEST_CANCELLED, 0);
}

static OTF2_CallbackCode ev_mpi_collective_begin(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_MPI_COLLECTIVE_BEGIN, 0);
}

static OTF2_CallbackCode ev_mpi_collective_end(EV_ARGS, OTF2_CollectiveOp op,
					       OTF2_CommRef comm,
					       uint32_t root, uint64_t sent,
					       uint64_t received)
{
	EV_BEGIN;
	ccg_put_u(b, op);
	ccg_put_u(b, comm);
	ccg_put_u(b, root);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	EV_END(CCG_EV_MPI_COLLECTIVE_END, 0);
}

static OTF2_CallbackCode ev_omp_fork(EV_ARGS, uint32_t threads)
{
	EV_BEGIN;
	ccg_put_u(b, threads);
	EV_END(CCG_EV_OMP_FORK, 0);
}

static OTF2_CallbackCode ev_omp_join(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_OMP_JOIN, 0);
}

static OTF2_CallbackCode ev_omp_acquire_lock(EV_ARGS, uint32_t lock,
					     uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_OMP_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_omp_release_lock(EV_ARGS, uint32_t lock,
					     uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_OMP_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_omp_task_create(EV_ARGS, uint64_t task)
{
	EV_BEGIN;
	ccg_put_u(b, task);
	EV_END(CCG_EV_OMP_TASK_CREATE, 0);
}

static OTF2_CallbackCode ev_omp_task_switch(EV_ARGS, uint64_t task)
{
	EV_BEGIN;
	ccg_put_u(b, task);
	EV_END(CCG_EV_OMP_TASK_SWITCH, 0);
}

static OTF2_CallbackCode ev_omp_task_complete(EV_ARGS, uint64_t task)
{
	EV_BEGIN;
	ccg_put_u(b, task);
	EV_END(CCG_EV_OMP_TASK_COMPLETE, 0);
}

static OTF2_CallbackCode ev_metric(EV_ARGS, OTF2_MetricRef metric,
				   uint8_t n, const OTF2_Type *types,
				   const OTF2_MetricValue *values)
{
	EV_BEGIN;
	ccg_put_u(b, metric);
	if (!types || !values)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++)
		ccg_rd_put_metric(b, types[i], values[i]);
	EV_END(CCG_EV_METRIC, 0);
}

static OTF2_CallbackCode ev_parameter_string(EV_ARGS,
					     OTF2_ParameterRef parameter,
					     OTF2_StringRef value)
{
	EV_BEGIN;
	ccg_put_u(b, parameter);
	ccg_put_u(b, value);
	EV_END(CCG_EV_PARAMETER_STRING, 0);
}

static OTF2_CallbackCode ev_parameter_int(EV_ARGS,
					  OTF2_ParameterRef parameter,
					  int64_t value)
{
	EV_BEGIN;
	ccg_put_u(b, parameter);
	ccg_put_i(b, value);
	EV_END(CCG_EV_PARAMETER_INT, 0);
}

static OTF2_CallbackCode ev_parameter_unsigned_int(EV_ARGS,
						   OTF2_ParameterRef parameter,
						   uint64_t value)
{
	EV_BEGIN;
	ccg_put_u(b, parameter);
	ccg_put_u(b, value);
	EV_END(CCG_EV_PARAMETER_UNSIGNED_INT, 0);
}

static OTF2_CallbackCode ev_rma_win_create(EV_ARGS, OTF2_RmaWinRef win)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	EV_END(CCG_EV_RMA_WIN_CREATE, 0);
}

static OTF2_CallbackCode ev_rma_win_destroy(EV_ARGS, OTF2_RmaWinRef win)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	EV_END(CCG_EV_RMA_WIN_DESTROY, 0);
}

static OTF2_CallbackCode ev_rma_collective_begin(EV_ARGS)
{
	EV_BEGIN;
	EV_END(CCG_EV_RMA_COLLECTIVE_BEGIN, 0);
}

static OTF2_CallbackCode ev_rma_collective_end(EV_ARGS, OTF2_CollectiveOp op,
					       OTF2_RmaSyncLevel level,
					       OTF2_RmaWinRef win,
					       uint32_t root, uint64_t sent,
					       uint64_t received)
{
	EV_BEGIN;
	ccg_put_u(b, op);
	ccg_put_u(b, level);
	ccg_put_u(b, win);
	ccg_put_u(b, root);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	EV_END(CCG_EV_RMA_COLLECTIVE_END, 0);
}

static OTF2_CallbackCode ev_rma_group_sync(EV_ARGS, OTF2_RmaSyncLevel level,
					   OTF2_RmaWinRef win,
					   OTF2_GroupRef group)
{
	EV_BEGIN;
	ccg_put_u(b, level);
	ccg_put_u(b, win);
	ccg_put_u(b, group);
	EV_END(CCG_EV_RMA_GROUP_SYNC, 0);
}

static OTF2_CallbackCode ev_rma_request_lock(EV_ARGS, OTF2_RmaWinRef win,
					     uint32_t remote, uint64_t lock,
					     OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	ccg_put_u(b, type);
	EV_END(CCG_EV_RMA_REQUEST_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_acquire_lock(EV_ARGS, OTF2_RmaWinRef win,
					     uint32_t remote, uint64_t lock,
					     OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	ccg_put_u(b, type);
	EV_END(CCG_EV_RMA_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_try_lock(EV_ARGS, OTF2_RmaWinRef win,
					 uint32_t remote, uint64_t lock,
					 OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	ccg_put_u(b, type);
	EV_END(CCG_EV_RMA_TRY_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_release_lock(EV_ARGS, OTF2_RmaWinRef win,
					     uint32_t remote, uint64_t lock)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, lock);
	EV_END(CCG_EV_RMA_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_rma_sync(EV_ARGS, OTF2_RmaWinRef win,
				     uint32_t remote, OTF2_RmaSyncType sync)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, sync);
	EV_END(CCG_EV_RMA_SYNC, 0);
}

static OTF2_CallbackCode ev_rma_wait_change(EV_ARGS, OTF2_RmaWinRef win)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	EV_END(CCG_EV_RMA_WAIT_CHANGE, 0);
}

static OTF2_CallbackCode ev_rma_put(EV_ARGS, OTF2_RmaWinRef win,
				    uint32_t remote, uint64_t bytes,
				    uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_PUT, 0);
}

static OTF2_CallbackCode ev_rma_get(EV_ARGS, OTF2_RmaWinRef win,
				    uint32_t remote, uint64_t bytes,
				    uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_GET, 0);
}

static OTF2_CallbackCode ev_rma_atomic(EV_ARGS, OTF2_RmaWinRef win,
				       uint32_t remote,
				       OTF2_RmaAtomicType type, uint64_t sent,
				       uint64_t received, uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, remote);
	ccg_put_u(b, type);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_ATOMIC, 0);
}

static OTF2_CallbackCode ev_rma_op_complete_blocking(EV_ARGS,
						     OTF2_RmaWinRef win,
						     uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_COMPLETE_BLOCKING, 0);
}

static OTF2_CallbackCode ev_rma_op_complete_non_blocking(EV_ARGS,
							 OTF2_RmaWinRef win,
							 uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_COMPLETE_NON_BLOCKING, 0);
}

static OTF2_CallbackCode ev_rma_op_test(EV_ARGS, OTF2_RmaWinRef win,
					uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_TEST, 0);
}

static OTF2_CallbackCode ev_rma_op_complete_remote(EV_ARGS,
						   OTF2_RmaWinRef win,
						   uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, win);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_RMA_OP_COMPLETE_REMOTE, 0);
}

static OTF2_CallbackCode ev_thread_fork(EV_ARGS, OTF2_Paradigm model,
					uint32_t threads)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	ccg_put_u(b, threads);
	EV_END(CCG_EV_THREAD_FORK, 0);
}

static OTF2_CallbackCode ev_thread_join(EV_ARGS, OTF2_Paradigm model)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	EV_END(CCG_EV_THREAD_JOIN, 0);
}

static OTF2_CallbackCode ev_thread_team_begin(EV_ARGS, OTF2_CommRef team)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	EV_END(CCG_EV_THREAD_TEAM_BEGIN, 0);
}

static OTF2_CallbackCode ev_thread_team_end(EV_ARGS, OTF2_CommRef team)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	EV_END(CCG_EV_THREAD_TEAM_END, 0);
}

static OTF2_CallbackCode ev_thread_acquire_lock(EV_ARGS, OTF2_Paradigm model,
						uint32_t lock, uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_THREAD_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_thread_release_lock(EV_ARGS, OTF2_Paradigm model,
						uint32_t lock, uint32_t order)
{
	EV_BEGIN;
	ccg_put_u(b, model);
	ccg_put_u(b, lock);
	ccg_put_u(b, order);
	EV_END(CCG_EV_THREAD_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_thread_task_create(EV_ARGS, OTF2_CommRef team,
					       uint32_t creator,
					       uint32_t generation)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	ccg_put_u(b, creator);
	ccg_put_u(b, generation);
	EV_END(CCG_EV_THREAD_TASK_CREATE, 0);
}

static OTF2_CallbackCode ev_thread_task_switch(EV_ARGS, OTF2_CommRef team,
					       uint32_t creator,
					       uint32_t generation)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	ccg_put_u(b, creator);
	ccg_put_u(b, generation);
	EV_END(CCG_EV_THREAD_TASK_SWITCH, 0);
}

static OTF2_CallbackCode ev_thread_task_complete(EV_ARGS, OTF2_CommRef team,
						 uint32_t creator,
						 uint32_t generation)
{
	EV_BEGIN;
	ccg_put_u(b, team);
	ccg_put_u(b, creator);
	ccg_put_u(b, generation);
	EV_END(CCG_EV_THREAD_TASK_COMPLETE, 0);
}

static OTF2_CallbackCode ev_thread_create(EV_ARGS, OTF2_CommRef contingent,
					  uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_CREATE, 0);
}

static OTF2_CallbackCode ev_thread_begin(EV_ARGS, OTF2_CommRef contingent,
					 uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_BEGIN, 0);
}

static OTF2_CallbackCode ev_thread_wait(EV_ARGS, OTF2_CommRef contingent,
					uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_WAIT, 0);
}

static OTF2_CallbackCode ev_thread_end(EV_ARGS, OTF2_CommRef contingent,
				       uint64_t sequence)
{
	EV_BEGIN;
	ccg_put_u(b, contingent);
	ccg_put_u(b, sequence);
	EV_END(CCG_EV_THREAD_END, 0);
}

static OTF2_CallbackCode ev_calling_context_enter(EV_ARGS,
						  OTF2_CallingContextRef cc,
						  uint32_t unwind)
{
	EV_BEGIN;
	ccg_put_u(b, cc);
	ccg_put_u(b, unwind);
	EV_END(CCG_EV_CALLING_CONTEXT_ENTER, cc);
}

static OTF2_CallbackCode ev_calling_context_leave(EV_ARGS,
						  OTF2_CallingContextRef cc)
{
	EV_BEGIN;
	ccg_put_u(b, cc);
	EV_END(CCG_EV_CALLING_CONTEXT_LEAVE, cc);
}

static OTF2_CallbackCode
ev_calling_context_sample(EV_ARGS, OTF2_CallingContextRef cc, uint32_t unwind,
			  OTF2_InterruptGeneratorRef generator)
{
	EV_BEGIN;
	ccg_put_u(b, cc);
	ccg_put_u(b, unwind);
	ccg_put_u(b, generator);
	EV_END(CCG_EV_CALLING_CONTEXT_SAMPLE, 0);
}

static OTF2_CallbackCode ev_io_create_handle(EV_ARGS, OTF2_IoHandleRef handle,
					     OTF2_IoAccessMode mode,
					     OTF2_IoCreationFlag creation,
					     OTF2_IoStatusFlag status)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, mode);
	ccg_put_u(b, creation);
	ccg_put_u(b, status);
	EV_END(CCG_EV_IO_CREATE_HANDLE, 0);
}

static OTF2_CallbackCode ev_io_destroy_handle(EV_ARGS,
					      OTF2_IoHandleRef handle)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	EV_END(CCG_EV_IO_DESTROY_HANDLE, 0);
}

static OTF2_CallbackCode ev_io_duplicate_handle(EV_ARGS,
						OTF2_IoHandleRef old_handle,
						OTF2_IoHandleRef new_handle,
						OTF2_IoStatusFlag status)
{
	EV_BEGIN;
	ccg_put_u(b, old_handle);
	ccg_put_u(b, new_handle);
	ccg_put_u(b, status);
	EV_END(CCG_EV_IO_DUPLICATE_HANDLE, 0);
}

static OTF2_CallbackCode ev_io_seek(EV_ARGS, OTF2_IoHandleRef handle,
				    int64_t offset, OTF2_IoSeekOption whence,
				    uint64_t result)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_i(b, offset);
	ccg_put_u(b, whence);
	ccg_put_u(b, result);
	EV_END(CCG_EV_IO_SEEK, 0);
}

static OTF2_CallbackCode ev_io_change_status_flags(EV_ARGS,
						   OTF2_IoHandleRef handle,
						   OTF2_IoStatusFlag status)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, status);
	EV_END(CCG_EV_IO_CHANGE_STATUS_FLAGS, 0);
}

static OTF2_CallbackCode ev_io_delete_file(EV_ARGS,
					   OTF2_IoParadigmRef paradigm,
					   OTF2_IoFileRef file)
{
	EV_BEGIN;
	ccg_put_u(b, paradigm);
	ccg_put_u(b, file);
	EV_END(CCG_EV_IO_DELETE_FILE, 0);
}

static OTF2_CallbackCode ev_io_operation_begin(EV_ARGS,
					       OTF2_IoHandleRef handle,
					       OTF2_IoOperationMode mode,
					       OTF2_IoOperationFlag flags,
					       uint64_t bytes,
					       uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, mode);
	ccg_put_u(b, flags);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_BEGIN, 0);
}

static OTF2_CallbackCode ev_io_operation_test(EV_ARGS,
					      OTF2_IoHandleRef handle,
					      uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_TEST, 0);
}

static OTF2_CallbackCode ev_io_operation_issued(EV_ARGS,
						OTF2_IoHandleRef handle,
						uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_ISSUED, 0);
}

static OTF2_CallbackCode ev_io_operation_complete(EV_ARGS,
						  OTF2_IoHandleRef handle,
						  uint64_t bytes,
						  uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, bytes);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_COMPLETE, 0);
}

static OTF2_CallbackCode ev_io_operation_cancelled(EV_ARGS,
						   OTF2_IoHandleRef handle,
						   uint64_t matching)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, matching);
	EV_END(CCG_EV_IO_OPERATION_CANCELLED, 0);
}

static OTF2_CallbackCode ev_io_acquire_lock(EV_ARGS, OTF2_IoHandleRef handle,
					    OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, type);
	EV_END(CCG_EV_IO_ACQUIRE_LOCK, 0);
}

static OTF2_CallbackCode ev_io_release_lock(EV_ARGS, OTF2_IoHandleRef handle,
					    OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, type);
	EV_END(CCG_EV_IO_RELEASE_LOCK, 0);
}

static OTF2_CallbackCode ev_io_try_lock(EV_ARGS, OTF2_IoHandleRef handle,
					OTF2_LockType type)
{
	EV_BEGIN;
	ccg_put_u(b, handle);
	ccg_put_u(b, type);
	EV_END(CCG_EV_IO_TRY_LOCK, 0);
}

static OTF2_CallbackCode ev_program_begin(EV_ARGS, OTF2_StringRef name,
					  uint32_t n,
					  const OTF2_StringRef *args)
{
	EV_BEGIN;
	ccg_put_u(b, name);
	ccg_rd_put_ids(b, n, args);
	EV_END(CCG_EV_PROGRAM_BEGIN, 0);
}

static OTF2_CallbackCode ev_program_end(EV_ARGS, int64_t status)
{
	EV_BEGIN;
	ccg_put_i(b, status);
	EV_END(CCG_EV_PROGRAM_END, 0);
}

static OTF2_CallbackCode ev_non_blocking_collective_request(EV_ARGS,
							    uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, request);
	EV_END(CCG_EV_NON_BLOCKING_COLLECTIVE_REQUEST, 0);
}

static OTF2_CallbackCode
ev_non_blocking_collective_complete(EV_ARGS, OTF2_CollectiveOp op,
				    OTF2_CommRef comm, uint32_t root,
				    uint64_t sent, uint64_t received,
				    uint64_t request)
{
	EV_BEGIN;
	ccg_put_u(b, op);
	ccg_put_u(b, comm);
	ccg_put_u(b, root);
	ccg_put_u(b, sent);
	ccg_put_u(b, received);
	ccg_put_u(b, request);
	EV_END(CCG_EV_NON_BLOCKING_COLLECTIVE_COMPLETE, 0);
}

static OTF2_CallbackCode ev_comm_create(EV_ARGS, OTF2_CommRef comm)
{
	EV_BEGIN;
	ccg_put_u(b, comm);
	EV_END(CCG_EV_COMM_CREATE, 0);
}

static OTF2_CallbackCode ev_comm_destroy(EV_ARGS, OTF2_CommRef comm)
{
	EV_BEGIN;
	ccg_put_u(b, comm);
	EV_END(CCG_EV_COMM_DESTROY, 0);
}

/* The callback table, one line per event kind of OTF2 3.0: long, but flat. */
OTF2_EvtReaderCallbacks *ccg_rd_event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *c = OTF2_EvtReaderCallbacks_New();
	if (!c)
		return NULL;
#define SET(name, fn) OTF2_EvtReaderCallbacks_Set##name##Callback(c, fn)
	SET(Unknown, ev_unknown);
	SET(BufferFlush, ev_buffer_flush);
	SET(MeasurementOnOff, ev_measurement_on_off);
	SET(Enter, ev_enter);
	SET(Leave, ev_leave);
	SET(MpiSend, ev_mpi_send);
	SET(MpiIsend, ev_mpi_isend);
	SET(MpiIsendComplete, ev_mpi_isend_complete);
	SET(MpiIrecvRequest, ev_mpi_irecv_request);
	SET(MpiRecv, ev_mpi_recv);
	SET(MpiIrecv, ev_mpi_irecv);
	SET(MpiRequestTest, ev_mpi_request_test);
	SET(MpiRequestCancelled, ev_mpi_request_cancelled);
	SET(MpiCollectiveBegin, ev_mpi_collective_begin);
	SET(MpiCollectiveEnd, ev_mpi_collective_end);
	SET(OmpFork, ev_omp_fork);
	SET(OmpJoin, ev_omp_join);
	SET(OmpAcquireLock, ev_omp_acquire_lock);
	SET(OmpReleaseLock, ev_omp_release_lock);
	SET(OmpTaskCreate, ev_omp_task_create);
	SET(OmpTaskSwitch, ev_omp_task_switch);
	SET(OmpTaskComplete, ev_omp_task_complete);
	SET(Metric, ev_metric);
	SET(ParameterString, ev_parameter_string);
	SET(ParameterInt, ev_parameter_int);
	SET(ParameterUnsignedInt, ev_parameter_unsigned_int);
	SET(RmaWinCreate, ev_rma_win_create);
	SET(RmaWinDestroy, ev_rma_win_destroy);
	SET(RmaCollectiveBegin, ev_rma_collective_begin);
	SET(RmaCollectiveEnd, ev_rma_collective_end);
	SET(RmaGroupSync, ev_rma_group_sync);
	SET(RmaRequestLock, ev_rma_request_lock);
	SET(RmaAcquireLock, ev_rma_acquire_lock);
	SET(RmaTryLock, ev_rma_try_lock);
	SET(RmaReleaseLock, ev_rma_release_lock);
	SET(RmaSync, ev_rma_sync);
	SET(RmaWaitChange, ev_rma_wait_change);
	SET(RmaPut, ev_rma_put);
	SET(RmaGet, ev_rma_get);
	SET(RmaAtomic, ev_rma_atomic);
	SET(RmaOpCompleteBlocking, ev_rma_op_complete_blocking);
	SET(RmaOpCompleteNonBlocking, ev_rma_op_complete_non_blocking);
	SET(RmaOpTest, ev_rma_op_test);
	SET(RmaOpCompleteRemote, ev_rma_op_complete_remote);
	SET(ThreadFork, ev_thread_fork);
	SET(ThreadJoin, ev_thread_join);
	SET(ThreadTeamBegin, ev_thread_team_begin);
	SET(ThreadTeamEnd, ev_thread_team_end);
	SET(ThreadAcquireLock, ev_thread_acquire_lock);
	SET(ThreadReleaseLock, ev_thread_release_lock);
	SET(ThreadTaskCreate, ev_thread_task_create);
	SET(ThreadTaskSwitch, ev_thread_task_switch);
	SET(ThreadTaskComplete, ev_thread_task_complete);
	SET(ThreadCreate, ev_thread_create);
	SET(ThreadBegin, ev_thread_begin);
	SET(ThreadWait, ev_thread_wait);
	SET(ThreadEnd, ev_thread_end);
	SET(CallingContextEnter, ev_calling_context_enter);
	SET(CallingContextLeave, ev_calling_context_leave);
	SET(CallingContextSample, ev_calling_context_sample);
	SET(IoCreateHandle, ev_io_create_handle);
	SET(IoDestroyHandle, ev_io_destroy_handle);
	SET(IoDuplicateHandle, ev_io_duplicate_handle);
	SET(IoSeek, ev_io_seek);
	SET(IoChangeStatusFlags, ev_io_change_status_flags);
	SET(IoDeleteFile, ev_io_delete_file);
	SET(IoOperationBegin, ev_io_operation_begin);
	SET(IoOperationTest, ev_io_operation_test);
	SET(IoOperationIssued, ev_io_operation_issued);
	SET(IoOperationComplete, ev_io_operation_complete);
	SET(IoOperationCancelled, ev_io_operation_cancelled);
	SET(IoAcquireLock, ev_io_acquire_lock);
	SET(IoReleaseLock, ev_io_release_lock);
	SET(IoTryLock, ev_io_try_lock);
	SET(ProgramBegin, ev_program_begin);
	SET(ProgramEnd, ev_program_end);
	SET(NonBlockingCollectiveRequest, ev_non_blocking_collective_request);
	SET(NonBlockingCollectiveComplete,
	    ev_non_blocking_collective_complete);
	SET(CommCreate, ev_comm_create);
	SET(CommDestroy, ev_comm_destroy);
#undef SET
	return c;
}
