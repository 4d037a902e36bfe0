/* Master-worker rounds: rank 0 broadcasts the round's parameters (MPI_Bcast, 4 doubles),
 * scatters CHUNK doubles to every rank (MPI_Scatter, itself included), every rank evaluates a
 * function WORK times per element (the computation), and the results come back with MPI_Gather
 * (CHUNK doubles per rank). ROUNDS such rounds.
 *
 * Then, if TASKS > 0, a farm phase: task t (CHUNK doubles, MPI_Send) goes to worker
 * 1 + t mod (P - 1); the master keeps one task in flight per worker and collects the results in
 * task order (MPI_Recv of CHUNK doubles from that worker), each result releasing the same worker's
 * next task; at the end each worker gets a stop message (1 double, received into a CHUNK buffer).
 * Task t costs (1 + 7t mod 5) x WORK evaluations per element, so the master waits for slow tasks
 * while faster workers' results queue up.
 *
 * Usage: master_worker ROUNDS CHUNK WORK TASKS
 * The rank count is smpirun's -np (at least 2 with TASKS > 0). Deterministic. The results are
 * not received from MPI_ANY_SOURCE on purpose: SMPI 3.32 traces a wildcard receive with source
 * -333 (MPI_UNDEFINED, not the matched rank) and `smpirun -replay` then waits forever for rank
 * -333, so a trace with wildcard receives cannot be replayed.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_TASK = 30, TAG_RESULT = 31 };

static long parse_count(const char* text, const char* what, int rank, long min) {
  char* end = NULL;
  long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < min) {
    if (rank == 0) fprintf(stderr, "master_worker: %s must be an integer >= %ld, not '%s'\n", what, min, text);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return value;
}

/* The work: `repeat` steps of a damped cosine iteration per element (not vectorisable away). */
static void evaluate(const double* params, const double* in, double* out, int chunk, long repeat) {
  for (int i = 0; i < chunk; i++) {
    double v = in[i];
    for (long w = 0; w < repeat; w++) v = params[0] * cos(v) + params[1] * v + params[2];
    out[i] = v * params[3];
  }
}

static void run_rounds(int rank, int size, int rounds, int chunk, long work) {
  double params[4];
  double* all_in = NULL;
  double* all_out = NULL;
  if (rank == 0) {
    all_in = malloc((size_t)size * chunk * sizeof(double));
    all_out = malloc((size_t)size * chunk * sizeof(double));
  }
  double* in = malloc(chunk * sizeof(double));
  double* out = malloc(chunk * sizeof(double));
  double total = 0.0;
  for (int round = 0; round < rounds; round++) {
    if (rank == 0) {
      params[0] = 0.5;
      params[1] = 0.25 + 0.01 * round;
      params[2] = 0.1;
      params[3] = 1.0 / (1 + round);
      for (int i = 0; i < size * chunk; i++) all_in[i] = (double)(i % 97) / 97.0 + round;
    }
    MPI_Bcast(params, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatter(all_in, chunk, MPI_DOUBLE, in, chunk, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    evaluate(params, in, out, chunk, work);
    MPI_Gather(out, chunk, MPI_DOUBLE, all_out, chunk, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
      for (int i = 0; i < size * chunk; i++) total += all_out[i];
  }
  if (rank == 0) printf("master_worker: %d rounds, sum %.9e\n", rounds, total);
  free(all_in);
  free(all_out);
  free(in);
  free(out);
}

static long task_cost(int task, long work) { return (1 + (7L * task) % 5) * work; }

/* A task message is CHUNK doubles: element 0 holds the task id; a stop message has 1 element. */
static void fill_task(double* task, int id, int chunk) {
  for (int i = 0; i < chunk; i++) task[i] = id + 0.001 * i;
}

static void master_farm(int size, int tasks, int chunk) {
  int workers = size - 1;
  double* task = malloc(chunk * sizeof(double));
  double* result = malloc(chunk * sizeof(double));
  int next = 0;
  for (; next < tasks && next < workers; next++) {
    fill_task(task, next, chunk);
    MPI_Send(task, chunk, MPI_DOUBLE, 1 + next % workers, TAG_TASK, MPI_COMM_WORLD);
  }
  double total = 0.0;
  for (int done = 0; done < tasks; done++) {
    int worker = 1 + done % workers;
    MPI_Recv(result, chunk, MPI_DOUBLE, worker, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    total += result[0];
    if (next < tasks) { /* next == done + workers: the same worker's next task */
      fill_task(task, next, chunk);
      MPI_Send(task, chunk, MPI_DOUBLE, worker, TAG_TASK, MPI_COMM_WORLD);
      next++;
    }
  }
  for (int w = 1; w <= workers; w++) MPI_Send(task, 1, MPI_DOUBLE, w, TAG_TASK, MPI_COMM_WORLD);
  printf("master_worker: %d farmed tasks, sum %.9e\n", tasks, total);
  free(task);
  free(result);
}

static void worker_farm(int chunk, long work) {
  const double params[4] = {0.5, 0.3, 0.1, 1.0};
  double* task = malloc(chunk * sizeof(double));
  double* result = malloc(chunk * sizeof(double));
  for (;;) {
    MPI_Status status;
    int count;
    MPI_Recv(task, chunk, MPI_DOUBLE, 0, TAG_TASK, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    if (count < chunk) break;
    evaluate(params, task, result, chunk, task_cost((int)task[0], work));
    MPI_Send(result, chunk, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
  }
  free(task);
  free(result);
}

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5) {
    if (rank == 0) fprintf(stderr, "usage: master_worker ROUNDS CHUNK WORK TASKS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rounds = (int)parse_count(argv[1], "ROUNDS", rank, 1);
  int chunk = (int)parse_count(argv[2], "CHUNK", rank, 2);
  long work = parse_count(argv[3], "WORK", rank, 1);
  int tasks = (int)parse_count(argv[4], "TASKS", rank, 0);
  if (tasks > 0 && size < 2) {
    if (rank == 0) fprintf(stderr, "master_worker: the farm phase needs a worker (2 ranks or more)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  run_rounds(rank, size, rounds, chunk, work);
  if (tasks > 0) {
    if (rank == 0)
      master_farm(size, tasks, chunk);
    else
      worker_farm(chunk, work);
  }
  MPI_Finalize();
  return 0;
}
