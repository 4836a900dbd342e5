// Tessera shader assembly text <-> isa::Program. The syntax is in docs/isa.md; disassemble()
// prints text that assemble() turns back into an identical Program.
#pragma once
#include <string>
#include <string_view>

#include "common/error.h"
#include "isa/program.h"

namespace tessera::isa {

// An error in assembly text; what() is "file:line:col: message" (line and column from 1).
class AsmError : public tessera::Error {
 public:
  AsmError(std::string_view file, int line, int col, const std::string& message)
      : tessera::Error(std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                       ": " + message),
        line_(line),
        col_(col) {}
  int line() const { return line_; }
  int col() const { return col_; }

 private:
  int line_;
  int col_;
};

Program assemble(std::string_view source, std::string_view fileName);
std::string disassemble(const Program& program);

// One operand as assembly text ("r3", "-|c[a0.x + 4]|", "0.5", "v1.y", ...); `type` says how an
// immediate is printed.
std::string formatOperand(const Operand& o, Type type);

}  // namespace tessera::isa
