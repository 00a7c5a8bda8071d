#pragma once
// member() of one object asked many times: a batch's per_sample is looked up once per sample id,
// and a scan per id made a 10,000-sample step quadratic (0.43 s to import, a quarter of it in
// member()). An index of the object's keys is built at the first lookup, when the object is big
// enough for it to pay; it answers what member() answers (keys are unique in both readings: the
// readers keep one value per key). The object must outlive the index and not change under it.
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "reconcile/json_access.hpp"

namespace reconcile {

template <class J>  // Tree or Json
class MemberIndex {
 public:
  explicit MemberIndex(const J* object) noexcept : object_(object) {}

  // member(*object, key); nullptr when the object is absent or not an object.
  [[nodiscard]] const J* find(std::string_view key) const {
    if (object_ == nullptr || !object_->is_object()) return nullptr;
    if (object_->size() < kIndexFrom) return member(*object_, key);
    if (!built_) build();
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : it->second;
  }

 private:
  // Below this many members a scan is as quick as a hash lookup and builds nothing.
  static constexpr std::size_t kIndexFrom = 16;

  void build() const {
    index_.reserve(object_->size());
    if constexpr (std::is_same_v<J, Tree>) {
      for (auto it = object_->begin(); it != object_->end(); ++it) index_.try_emplace(it.key(), &*it);
    } else {
      for (const JsonMember& m : object_->members()) index_.try_emplace(m.first, &m.second);
    }
    built_ = true;
  }

  const J* object_;
  mutable std::unordered_map<std::string_view, const J*> index_;
  mutable bool built_ = false;
};

// object[key] = value for many keys, each a hash lookup rather than ordered_json's scan of the
// keys before it, and without its growth (which copies every member already in: pairs with a
// const key are copied, not moved). The same object: a key met again keeps its first place and
// takes the last value. `object` must be an empty object, and not be touched while this fills it.
class MemberFiller {
 public:
  MemberFiller(Tree& object, std::size_t members) : members_(static_cast<Tree::object_t::Container&>(object.get_ref<Tree::object_t&>())) {
    members_.reserve(members);
  }
  void assign(std::string key, Tree value) {
    if (const auto [it, fresh] = at_.try_emplace(key, members_.size()); !fresh) {
      (members_.begin() + static_cast<std::ptrdiff_t>(it->second))->second = std::move(value);
      return;
    }
    members_.emplace_back(std::move(key), std::move(value));
  }

 private:
  Tree::object_t::Container& members_;
  std::unordered_map<std::string, std::size_t> at_;  // key -> its place
};

}  // namespace reconcile
