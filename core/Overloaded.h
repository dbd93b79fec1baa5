// The visitor of std::visit written as lambdas, one per alternative:
// std::visit(Overloaded{[](const A&) {...}, [](const B&) {...}}, variant). Used wherever a variant of the
// core (a program's steps and operations) is taken apart.
#pragma once

namespace kp {

template <class... F> struct Overloaded : F... { using F::operator()...; };
// Spelled out for compilers without C++20's deduction for aggregates (clang 14).
template <class... F> Overloaded(F...) -> Overloaded<F...>;

} // namespace kp
