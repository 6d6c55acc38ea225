export default function LogoutPage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Logout</h1>
    </main>
  );
}
