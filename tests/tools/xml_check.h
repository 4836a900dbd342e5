// A small well-formedness check for the SVG the reports write: every element closed in order,
// attributes quoted, entities known, one root. Enough to catch a broken writer without an XML
// library; returns an empty string when the text is well-formed, else what is wrong and where.
#pragma once
#include <cctype>
#include <string>
#include <vector>

namespace tessera::test {

inline std::string xmlProblem(const std::string& x) {
  std::vector<std::string> open;
  size_t roots = 0, i = 0;
  auto at = [&](size_t p) { return " at offset " + std::to_string(p); };
  auto entityOk = [&](size_t p) {  // x[p] == '&'
    const size_t semi = x.find(';', p);
    if (semi == std::string::npos || semi - p > 8) return false;
    const std::string e = x.substr(p + 1, semi - p - 1);
    if (e == "amp" || e == "lt" || e == "gt" || e == "quot" || e == "apos") return true;
    if (e.size() > 1 && e[0] == '#') {
      for (size_t k = 1; k < e.size(); ++k)
        if (!std::isdigit(static_cast<unsigned char>(e[k]))) return false;
      return true;
    }
    return false;
  };
  while (i < x.size()) {
    if (x[i] == '&') {
      if (!entityOk(i)) return "bad entity" + at(i);
      ++i;
      continue;
    }
    if (x[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(x[i])))
        return "text outside the root" + at(i);
      ++i;
      continue;
    }
    if (x.compare(i, 4, "<!--") == 0 || x.compare(i, 2, "<?") == 0) {
      const size_t end = x.find(x[i + 1] == '!' ? "-->" : "?>", i);
      if (end == std::string::npos) return "unterminated comment" + at(i);
      i = end + 2;
      continue;
    }
    const bool closing = x.compare(i, 2, "</") == 0;
    size_t p = i + (closing ? 2 : 1);
    const size_t nameStart = p;
    while (p < x.size() && (std::isalnum(static_cast<unsigned char>(x[p])) || x[p] == '-' ||
                            x[p] == ':' || x[p] == '_'))
      ++p;
    const std::string name = x.substr(nameStart, p - nameStart);
    if (name.empty()) return "tag without a name" + at(i);
    if (closing) {
      while (p < x.size() && std::isspace(static_cast<unsigned char>(x[p]))) ++p;
      if (p >= x.size() || x[p] != '>') return "bad closing tag" + at(i);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">") +
               at(i);
      open.pop_back();
      i = p + 1;
      continue;
    }
    // Attributes: name="value" or name='value'.
    while (true) {
      while (p < x.size() && std::isspace(static_cast<unsigned char>(x[p]))) ++p;
      if (p >= x.size()) return "unterminated tag <" + name + ">" + at(i);
      if (x[p] == '>' || x.compare(p, 2, "/>") == 0) break;
      const size_t a = p;
      while (p < x.size() && x[p] != '=' && !std::isspace(static_cast<unsigned char>(x[p])) &&
             x[p] != '>')
        ++p;
      if (p == a || p >= x.size() || x[p] != '=') return "attribute without a value" + at(a);
      ++p;
      if (p >= x.size() || (x[p] != '"' && x[p] != '\'')) return "unquoted attribute" + at(a);
      const char q = x[p++];
      const size_t end = x.find(q, p);
      if (end == std::string::npos) return "unterminated attribute" + at(a);
      for (size_t k = p; k < end; ++k) {
        if (x[k] == '<') return "'<' in an attribute" + at(k);
        if (x[k] == '&' && !entityOk(k)) return "bad entity" + at(k);
      }
      p = end + 1;
    }
    const bool empty = x[p] == '/';
    if (open.empty() && ++roots > 1) return "a second root element" + at(i);
    if (!empty) open.push_back(name);
    i = p + (empty ? 2 : 1);
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  if (roots == 0) return "no root element";
  return {};
}

// Occurrences of `needle` in `text`.
inline size_t countOf(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace tessera::test
