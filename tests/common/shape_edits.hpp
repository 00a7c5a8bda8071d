#pragma once
// One document and edits of it that change its shape (json_document_shape_test.cpp and
// json_tree_shape_test.cpp hold both forms of a shape to them), and one that keeps it.
#include <array>

namespace shape_edits {

inline constexpr const char* kBase = R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})";
// Other strings and numbers (stored alike: 1e3 is a float as 0.5 is).
inline constexpr const char* kSameShape =
    R"({"name":"b and more","w":[1e3,-2.75,7],"on":true,"n":null,"o":{"k":"","e":[]}})";
inline constexpr std::array kOtherShapes = {
    R"({"name":"a","w":[0.5,-1.25,3.5],"on":true,"n":null,"o":{"k":"v","e":[]}})",  // unsigned -> float
    R"({"name":"a","w":[0.5,-1.25,-3],"on":true,"n":null,"o":{"k":"v","e":[]}})",   // unsigned -> integer
    R"({"nbme":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})",    // a key's byte
    R"({"names":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})",   // a key's length
    R"({"name":"a","w":[0.5,-1.25,3,4],"on":true,"n":null,"o":{"k":"v","e":[]}})",  // a size
    R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[1]}})",   // a nested size
    R"({"name":"a","w":[0.5,-1.25,3],"on":false,"n":null,"o":{"k":"v","e":[]}})",   // a boolean
    R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":0,"o":{"k":"v","e":[]}})",       // a type
    R"({"name":1,"w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})",      // a string's type
    R"({"w":[0.5,-1.25,3],"name":"a","on":true,"n":null,"o":{"k":"v","e":[]}})",    // the order
    R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":[{"k":"v","e":[]}]})",  // the nesting
    R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"e":[],"k":"v"}})",    // nested order
    R"([])",                                                                         // the root
};

}  // namespace shape_edits
