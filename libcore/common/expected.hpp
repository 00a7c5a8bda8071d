#pragma once
// Expected<T, E>: a value or an error E (std::expected is C++23). E is common::Error (see
// result.hpp) or a class derived from it that adds a small enum a caller branches on
// (nl::StepError, hybrid::CacheError). T and E must be distinct types so both constructors stay implicit.
#include <cassert>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace common {

template <typename T, typename E>
class [[nodiscard]] Expected {
  static_assert(!std::is_same_v<std::decay_t<T>, std::decay_t<E>>, "value and error types must differ");

 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT implicit by design
  Expected(E error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  [[nodiscard]] bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  [[nodiscard]] const E& error() const { assert(!ok()); return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

template <typename E>
class [[nodiscard]] Expected<void, E> {
 public:
  // User-provided, so `return {};` does not zero the whole (error-sized) object first: success is
  // the hot path of every Status-returning call.
  Expected() noexcept {}  // NOLINT(modernize-use-equals-default)
  Expected(E error) : e_(std::move(error)) {}  // NOLINT
  [[nodiscard]] bool ok() const { return !e_.has_value(); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const E& error() const { assert(!ok()); return *e_; }

 private:
  std::optional<E> e_;
};

}  // namespace common
