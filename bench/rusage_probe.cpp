// CPU time of a whole process tree: runs COMMAND, waits for it, and prints the user and
// system time of every descendant that was waited for (getrusage RUSAGE_CHILDREN), so a
// `plumbline run` is counted with the workers it spawned and reaped. The probe's own time
// is not included. Output, one line: "user_s sys_s exit_code". COMMAND's stdout and stderr
// pass through unless --quiet. Usage: rusage_probe [--quiet] COMMAND [ARGS...]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {
double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }
}  // namespace

int main(int argc, char** argv) {
  int first = 1;
  bool quiet = false;
  if (argc > 1 && std::strcmp(argv[1], "--quiet") == 0) {
    quiet = true;
    first = 2;
  }
  if (first >= argc) {
    std::fprintf(stderr, "usage: rusage_probe [--quiet] COMMAND [ARGS...]\n");
    return 2;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "rusage_probe: fork: %s\n", std::strerror(errno));
    return 1;
  }
  if (pid == 0) {
    if (quiet) {
      const int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) {
        dup2(devnull, 1);
        dup2(devnull, 2);
        close(devnull);
      }
    }
    execvp(argv[first], argv + first);
    std::fprintf(stderr, "rusage_probe: cannot run %s: %s\n", argv[first], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "rusage_probe: waitpid: %s\n", std::strerror(errno));
      return 1;
    }
  }
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::printf("%.6f %.6f %d\n", seconds(u.ru_utime), seconds(u.ru_stime), code);
  return 0;
}
